package memory

import (
	"context"

	"github.com/agentcompact/compact/memory/internal/retrieval"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/embeddings"
)

// DefaultSemanticThreshold is the default of [WithSemanticThreshold]: the
// least cosine similarity between the input's embedding and a message's
// for the message to be a semantic candidate of retrieval.
const DefaultSemanticThreshold = 0.5

// DefaultEmbeddingLimit is the default of [WithEmbeddingLimit]: how many of
// the most recent messages out of the context are embedded and ranked
// semantically.
const DefaultEmbeddingLimit = 4096

// WithEmbedder adds semantic ranking to retrieval (see [WithRetrieval]):
// hybrid retrieval. The candidates of a load are then the lexical hits
// that pass the relevance gate, together with the best semantic matches
// among the most recent messages out of the context ([WithEmbeddingLimit]):
// those whose embedding has a cosine similarity of at least the threshold
// ([WithSemanticThreshold]) to the input's (EmbedQuery), at most 32. So a
// turn that shares no word with the input ("automobile" for "car") can be
// retrieved. The candidates are ordered by reciprocal rank fusion of their
// ranks in the two lists (score sum of 1/(60+rank) over the lists a
// candidate is in): ranks rather than a weighted sum of scores, because
// the lexical scores of the stores are on unrelated scales (BM25 in
// store.Memory, FTS5's bm25 in SQLite, ts_rank in PostgreSQL) and cosines
// of different models crowd in different ranges, so no one weight would
// mean the same across them; a candidate both rankings agree on comes
// first.
//
// Messages are embedded with EmbedDocuments in batches of 128 (each text
// cut to its first 8,000 bytes, system messages skipped), once: their unit
// vectors are cached in the Memory by message id, for the messages within
// the limit only (older vectors are dropped as the context moves on), so
// the cache never holds more than [WithEmbeddingLimit] vectors, stored as
// int8 (4,096 vectors of 1,536 dimensions are 6 MB; cosines stay within
// about 0.001 of the exact ones). The first load that needs them embeds
// every message in range (a long conversation loaded in a new process: up
// to the limit, in one load; the batches done stay cached if its context
// ends first); later loads embed only the messages that left the context
// since, plus the input (EmbedQuery; not again when the same input is
// loaded again next). Ranking costs one dot product per cached vector per
// load.
//
// Semantic ranking never fails a load: an embedder error, a panic, a
// vector of the wrong dimension (the first valid vector fixes it for the
// Memory), a NaN, infinite or zero vector, or a wrong number of vectors
// makes that load rank lexically only; it is logged at warn level
// ([WithLogger]) and counted in [RetrievalStats].SemanticErrors. The calls
// are bounded by the load's context, even with an embedder that ignores
// it; give LoadMemoryVariables a context with a deadline when the embedder
// is remote. Nothing is embedded when retrieval retrieves nothing anyway
// (before the first compaction, or for an input [WithRetrieval] skips).
// Semantic ranking adds to the lexical ranking (the history's search, or
// the Memory's index over a history without one). Default nil: lexical
// ranking only.
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

// semanticConfig returns the hybrid options with their defaults applied.
func semanticConfig(o retrieval.SemanticConfig) retrieval.SemanticConfig {
	if o.Threshold <= 0 || o.Threshold > 1 {
		o.Threshold = DefaultSemanticThreshold
	}
	if o.Limit < 1 {
		o.Limit = DefaultEmbeddingLimit
	}
	return o
}

// semanticHits returns the best semantic matches of query among the
// messages before position cut (see [WithEmbedder] and
// retrieval.Semantic.Hits); nil without an embedder. failed reports a
// failure (logged), after which the load ranks lexically.
func (m *Memory) semanticHits(ctx context.Context, query string, cut int) (hits []store.Hit, failed bool) {
	hits, err := m.rt.sem.Hits(ctx, query, cut, m.win, &m.mu)
	if err != nil {
		m.log.Warn("memory: semantic ranking failed; ranking lexically", "session", m.o.sessionID, "err", err)
		return nil, true
	}
	return hits, false
}
