package memory

import (
	"github.com/agentcompact/compact/memory/internal/retrieval"
	"github.com/tmc/langchaingo/embeddings"
)

// DefaultSemanticThreshold is the default of [WithSemanticThreshold]: the
// least cosine similarity between the input's embedding and a message's
// for the message to be a semantic candidate of retrieval.
const DefaultSemanticThreshold = retrieval.DefaultThreshold

// DefaultEmbeddingLimit is the default of [WithEmbeddingLimit]: how many of
// the most recent messages out of the context are embedded and ranked
// semantically.
const DefaultEmbeddingLimit = retrieval.DefaultLimit

// WithEmbedder adds semantic ranking to retrieval (see [WithRetrieval]):
// hybrid retrieval. A load's candidates are then the lexical hits that
// pass the relevance gate together with the messages out of the context,
// among the most recent [WithEmbeddingLimit], whose embedding has a cosine
// of at least [WithSemanticThreshold] to the input's (at most 32), so a
// turn that shares a meaning but no word with the input comes back too;
// both rankings are merged by reciprocal rank fusion (1/(60+rank) summed
// over the lists). Messages are embedded once, in batches of 128, and their
// vectors cached by message id (int8, at most the limit's worth). Semantic
// ranking never fails a load: an embedder error, panic, unusable vector or
// one outliving the load's context makes that load rank lexically, logged
// at warn level and counted in [RetrievalStats].SemanticErrors. Default
// nil: lexical ranking only. docs/memory.md ("Hybrid retrieval in
// detail") tells the costs and bounds in full.
func WithEmbedder(e embeddings.Embedder) Option {
	return func(o *options) { o.hybrid.Embedder = e }
}

// WithSemanticThreshold sets the least cosine similarity of a message's
// embedding to the input's for the message to be a semantic candidate of
// retrieval (see [WithEmbedder]); it plays for semantic candidates the part
// that the relevance gate (0.3 of the input's word weight, see
// [WithRetrieval]) plays for lexical hits: a generic input should not push
// recent turns out for a chance match. A lexical hit that fails the
// relevance gate is still a candidate when its cosine reaches the
// threshold. The scale of cosines depends on the model (models whose
// cosines crowd near 1 need a higher threshold); the default is a middle
// value, not tuned on any model here: check it against yours, for example
// with the cosines of a generic input ("let's keep chatting") to your
// conversations' turns, which should stay below it. Default
// [DefaultSemanticThreshold] (0.5); a value outside (0, 1] is an invalid
// option.
func WithSemanticThreshold(cos float64) Option {
	return func(o *options) {
		if !finite(cos) || cos <= 0 || cos > 1 {
			o.badOption("WithSemanticThreshold", "need 0 < cosine <= 1, got %v", cos)
			return
		}
		o.hybrid.Threshold = cos
	}
}

// WithEmbeddingLimit sets how many of the most recent messages out of the
// context (see [WithEmbedder]) are embedded, cached and ranked
// semantically; older messages are found by lexical ranking only. It
// bounds the cache, the embedding calls of a first load and the cost of a
// load's ranking. Default [DefaultEmbeddingLimit] (4,096); a value below 1
// is an invalid option.
func WithEmbeddingLimit(n int) Option {
	return func(o *options) {
		if n < 1 {
			o.badOption("WithEmbeddingLimit", "%d must be >= 1", n)
			return
		}
		o.hybrid.Limit = n
	}
}
