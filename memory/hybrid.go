package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
)

// DefaultSemanticThreshold is the default of [WithSemanticThreshold]: the
// least cosine similarity between the input's embedding and a message's
// for the message to be a semantic candidate of retrieval.
const DefaultSemanticThreshold = 0.5

// DefaultEmbeddingLimit is the default of [WithEmbeddingLimit]: how many of
// the most recent messages out of the context are embedded and ranked
// semantically.
const DefaultEmbeddingLimit = 4096

// rrfK is the constant of reciprocal rank fusion: a candidate at rank r
// (from 1) of a list scores 1/(rrfK+r). 60 is the value of Cormack et al.
// (2009), which damps the weight of the top ranks without ignoring them.
const rrfK = 60

// embedBatch is how many messages one EmbedDocuments call is given; the
// vectors of the batches done stay cached when a later batch fails.
const embedBatch = 128

// maxEmbedBytes caps the text of a message that is embedded (its head, cut
// at a rune boundary): about 2,000 tokens of English, within the input
// limit of common embedding models (8,191 tokens for OpenAI's), so that
// one long message does not fail its batch.
const maxEmbedBytes = 8000

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
// Semantic ranking adds to the history's search: over a history without
// store.Searcher nothing is retrieved still. Default nil: lexical ranking
// only.
func WithEmbedder(e embeddings.Embedder) Option {
	return func(o *options) { o.hybrid.embedder = e }
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
// conversations' turns, which should stay below it. Values outside (0, 1]
// mean the default, [DefaultSemanticThreshold] (0.5).
func WithSemanticThreshold(cos float64) Option {
	return func(o *options) { o.hybrid.threshold = cos }
}

// WithEmbeddingLimit sets how many of the most recent messages out of the
// context (see [WithEmbedder]) are embedded, cached and ranked
// semantically; older messages are found by lexical ranking only. It
// bounds the cache, the embedding calls of a first load and the cost of a
// load's ranking. Values below 1 mean the default, [DefaultEmbeddingLimit]
// (4,096).
func WithEmbeddingLimit(n int) Option {
	return func(o *options) { o.hybrid.limit = n }
}

// hybridOptions are the options of semantic ranking.
type hybridOptions struct {
	embedder  embeddings.Embedder
	threshold float64
	limit     int
}

// semantic is a Memory's semantic ranking state (nil embedder: off).
type semantic struct {
	emb       embeddings.Embedder
	threshold float64
	limit     int
	mu        sync.Mutex
	dim       int             // the vectors' dimension; 0 until the first valid vector
	vecs      map[string]qvec // message id -> its unit vector
	lastQuery string          // the last input embedded, and its unit vector
	lastVec   qvec
}

// setupSemantic applies the hybrid options, once, in New.
func (m *Memory) setupSemantic() {
	o := m.o.hybrid
	s := &m.rt.sem
	s.emb, s.threshold, s.limit = o.embedder, o.threshold, o.limit
	if s.threshold <= 0 || s.threshold > 1 {
		s.threshold = DefaultSemanticThreshold
	}
	if s.limit < 1 {
		s.limit = DefaultEmbeddingLimit
	}
	s.vecs = map[string]qvec{}
}

// ranged is a message within the semantic range: its position and id.
type ranged struct {
	pos int
	id  string
}

// semanticHits returns the best semantic matches of query among the
// messages before position cut (the most recent limit of them; see
// [WithEmbedder]), best first, Score the cosine; nil without an embedder.
// failed reports a failure (logged), after which the load ranks lexically.
func (m *Memory) semanticHits(ctx context.Context, query string, cut int) (hits []store.Hit, failed bool) {
	s := &m.rt.sem
	if s.emb == nil || cut <= 0 {
		return nil, false
	}
	hits, err := m.rankSemantic(ctx, query, cut)
	if err != nil {
		m.log.Warn("memory: semantic ranking failed; ranking lexically", "session", m.o.sessionID, "err", err)
		return nil, true
	}
	return hits, false
}

// rankSemantic embeds the input and the range's messages not cached yet,
// and ranks the range by cosine.
func (m *Memory) rankSemantic(ctx context.Context, query string, cut int) ([]store.Hit, error) {
	s := &m.rt.sem
	qv, err := s.queryVector(ctx, query)
	if err != nil {
		return nil, err
	}
	rng, missing, texts := m.semanticRange(cut)
	for i := 0; i < len(texts); i += embedBatch {
		j := min(i+embedBatch, len(texts))
		if err := s.embedBatch(ctx, missing[i:j], texts[i:j]); err != nil {
			return nil, err
		}
	}
	return s.rank(qv, rng), nil
}

// semanticRange returns the messages of the semantic range (the last limit
// positions before cut, system messages and empty texts left out), and
// the ids and texts (capped) of those not cached yet; it drops the cached
// vectors of messages out of the range when, with those missing, the
// cache would hold more than the limit.
func (m *Memory) semanticRange(cut int) (rng []ranged, missing, texts []string) {
	s := &m.rt.sem
	m.mu.Lock()
	defer m.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	cut = min(cut, m.win.Len())
	lo := max(0, cut-s.limit)
	rng = make([]ranged, 0, cut-lo)
	for q := lo; q < cut; q++ {
		id, mc := m.win.ID(q), m.win.Message(q)
		if _, ok := s.vecs[id]; ok {
			rng = append(rng, ranged{q, id})
			continue
		}
		text := textOf(mc)
		if mc.Role == llms.ChatMessageTypeSystem || text == "" {
			continue
		}
		rng = append(rng, ranged{q, id})
		missing = append(missing, id)
		texts = append(texts, msg.HeadBytes(text, maxEmbedBytes))
	}
	if len(s.vecs)+len(missing) > s.limit {
		kept := make(map[string]qvec, len(rng))
		for _, r := range rng {
			if v, ok := s.vecs[r.id]; ok {
				kept[r.id] = v
			}
		}
		s.vecs = kept
	}
	return rng, missing, texts
}

// queryVector returns the unit vector of query (the last one is kept).
func (s *semantic) queryVector(ctx context.Context, query string) (qvec, error) {
	s.mu.Lock()
	if s.lastVec.v != nil && s.lastQuery == query {
		defer s.mu.Unlock()
		return s.lastVec, nil
	}
	s.mu.Unlock()
	v, err := guardedEmbed(ctx, func(ctx context.Context) ([]float32, error) { return s.emb.EmbedQuery(ctx, query) })
	if err != nil {
		return qvec{}, fmt.Errorf("embed the input: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := s.unitLocked(v)
	if err != nil {
		return qvec{}, fmt.Errorf("embed the input: %w", err)
	}
	s.lastQuery, s.lastVec = query, u
	return u, nil
}

// embedBatch embeds texts, those of the messages ids, and caches their
// unit vectors; nothing of the batch is cached when any vector is invalid.
func (s *semantic) embedBatch(ctx context.Context, ids, texts []string) error {
	vs, err := guardedEmbed(ctx, func(ctx context.Context) ([][]float32, error) {
		return s.emb.EmbedDocuments(ctx, slices.Clone(texts)) // langchaingo's may rewrite them
	})
	if err != nil {
		return fmt.Errorf("embed %d messages: %w", len(texts), err)
	}
	if len(vs) != len(texts) {
		return fmt.Errorf("embed %d messages: %d vectors returned", len(texts), len(vs))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	units := make([]qvec, len(vs))
	for i, v := range vs {
		if units[i], err = s.unitLocked(v); err != nil {
			return fmt.Errorf("embed %d messages: vector %d: %w", len(texts), i, err)
		}
	}
	for i, id := range ids {
		s.vecs[id] = units[i]
	}
	return nil
}

// errBadVector is the error of an unusable embedding.
var errBadVector = errors.New("unusable vector")

// qvec is a unit vector quantized to int8: its component i is v[i]*scale,
// to within half a step (scale/2). A quarter of the float32 vector's
// memory, and so of the bytes a ranking reads; a cosine of two qvecs of
// 1,536 dimensions is off by about 0.001 at most.
type qvec struct {
	v     []int8
	scale float32
}

// unitLocked returns v scaled to unit length and quantized (v is not
// modified); an error for an empty, zero, NaN or infinite vector, or one
// whose dimension is not the Memory's (set by the first valid vector).
// Requires s.mu.
func (s *semantic) unitLocked(v []float32) (qvec, error) {
	if len(v) == 0 || (s.dim != 0 && len(v) != s.dim) {
		return qvec{}, fmt.Errorf("%w: dimension %d, want %d", errBadVector, len(v), s.dim)
	}
	var norm, peak float64
	for _, x := range v {
		norm += float64(x) * float64(x)
		peak = max(peak, math.Abs(float64(x)))
	}
	norm = math.Sqrt(norm)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return qvec{}, fmt.Errorf("%w: norm %v", errBadVector, norm)
	}
	step := peak / norm / 127 // the largest component maps to ±127
	q := qvec{v: make([]int8, len(v)), scale: float32(step)}
	for i, x := range v {
		q.v[i] = int8(math.Round(float64(x) / norm / step))
	}
	s.dim = len(v)
	return q, nil
}

// rank returns the messages of rng whose cosine to qv reaches the
// threshold, best first (newer first on a tie), at most retrievalHits.
func (s *semantic) rank(qv qvec, rng []ranged) []store.Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	var hits []store.Hit
	for _, r := range rng {
		if dot := dot(s.vecs[r.id], qv); dot >= s.threshold {
			hits = append(hits, store.Hit{Pos: r.pos, Score: dot})
		}
	}
	slices.SortFunc(hits, func(a, b store.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Pos, a.Pos))
	})
	return hits[:min(len(hits), retrievalHits)]
}

// dot returns the dot product of a and b (their cosine, both being unit
// vectors), or -2 when their dimensions differ. The hot loop of a ranking:
// integer sums over four accumulators (no overflow below 130,000
// dimensions).
func dot(a, b qvec) float64 {
	x, y := a.v, b.v
	if len(x) != len(y) || len(x) == 0 {
		return -2
	}
	var s0, s1, s2, s3 int32
	for len(x) >= 4 && len(y) >= 4 { // the lengths checked once per step
		s0 += int32(x[0]) * int32(y[0])
		s1 += int32(x[1]) * int32(y[1])
		s2 += int32(x[2]) * int32(y[2])
		s3 += int32(x[3]) * int32(y[3])
		x, y = x[4:], y[4:]
	}
	for i := range min(len(x), len(y)) {
		s0 += int32(x[i]) * int32(y[i])
	}
	return float64(int64(s0)+int64(s1)+int64(s2)+int64(s3)) * float64(a.scale) * float64(b.scale)
}

// fuseHits merges the lexical hits (gated, in the store's order) and the
// semantic ones by reciprocal rank fusion (see [WithEmbedder]); on a tie
// the lexical order first. Without semantic hits it returns lex as it is.
func fuseHits(lex, sem []store.Hit) []store.Hit {
	if len(sem) == 0 {
		return lex
	}
	score := make(map[int]float64, len(lex)+len(sem))
	out := make([]store.Hit, 0, len(lex)+len(sem))
	for _, list := range [][]store.Hit{lex, sem} {
		for r, h := range list {
			if _, ok := score[h.Pos]; !ok {
				out = append(out, store.Hit{Pos: h.Pos})
			}
			score[h.Pos] += 1 / float64(rrfK+r+1)
		}
	}
	for i := range out {
		out[i].Score = score[out[i].Pos]
	}
	slices.SortStableFunc(out, func(a, b store.Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// guardedEmbed runs an embedder call f so that ctx bounds it even when the
// embedder ignores ctx (the call is then left to finish on its own), and a
// panic in it is an error.
func guardedEmbed[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	type answer struct {
		v   T
		err error
	}
	ch := make(chan answer, 1) // buffered: a late embedder never blocks
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- answer{err: fmt.Errorf("embedder panicked: %v", r)}
			}
		}()
		v, err := f(ctx)
		ch <- answer{v, err}
	}()
	select {
	case a := <-ch:
		return a.v, a.err
	case <-ctx.Done():
		var zero T
		return zero, context.Cause(ctx)
	}
}
