// Package retrieval ranks the earlier messages of a conversation's history
// against an input and renders those picked as one block of the context:
// the retrieval of package memory (see memory.WithRetrieval), apart from
// the Memory that wires it in.
//
// It holds the parts that depend on the history and the input only: the
// relevance gate of lexical hits by inverse document frequency over the
// history's stems ([Terms]), the semantic ranking by embeddings with its
// cache of vectors ([Semantic]), the reciprocal rank fusion of the two
// ([Fuse]) and the block of retrieved messages within a token room
// ([Block]). The history is a *conversation.Log that the caller owns: the
// functions and methods that read it say so, and require the caller's lock
// on it for the duration of the call ([Semantic.Hits] takes it itself,
// through the view function it is given, so as not to hold it while
// embedding).
package retrieval

// MaxHits is how many ranked messages a retrieval asks the history's
// search for, and the most semantic matches a ranking returns.
const MaxHits = 32
