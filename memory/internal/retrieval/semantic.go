package retrieval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/agentcompact/compact/internal/guard"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
)

// EmbedBatch is how many messages one EmbedDocuments call is given; the
// vectors of the batches done stay cached when a later batch fails.
const EmbedBatch = 128

// maxEmbedBytes caps the text of a message that is embedded (its head, cut
// at a rune boundary): about 2,000 tokens of English, within the input
// limit of common embedding models (8,191 tokens for OpenAI's), so that
// one long message does not fail its batch.
const maxEmbedBytes = 8000

// SemanticConfig configures a [Semantic] ranking (memory.WithEmbedder,
// memory.WithSemanticThreshold, memory.WithEmbeddingLimit).
type SemanticConfig struct {
	// Embedder embeds the input and the messages; nil: no semantic
	// ranking (the default).
	Embedder embeddings.Embedder
	// Threshold is the least cosine of a semantic match, in (0, 1].
	Threshold float64
	// Limit is how many of the most recent messages before the cut are
	// embedded, cached and ranked, at least 1.
	Limit int
}

// The defaults of a SemanticConfig's Threshold and Limit
// (memory.DefaultSemanticThreshold, memory.DefaultEmbeddingLimit).
const (
	DefaultThreshold = 0.5
	DefaultLimit     = 4096
)

// withDefaults returns c with the defaults in place of values out of range.
func (c SemanticConfig) withDefaults() SemanticConfig {
	if c.Threshold <= 0 || c.Threshold > 1 {
		c.Threshold = DefaultThreshold
	}
	if c.Limit < 1 {
		c.Limit = DefaultLimit
	}
	return c
}

// Semantic is the semantic ranking of a history's messages against an
// input by the cosine of their embeddings, with the cache of the messages'
// vectors (by message id). Configure it once before use; its methods are
// safe for concurrent use.
type Semantic struct {
	cfg       SemanticConfig
	mu        sync.Mutex
	dim       int             // the vectors' dimension; 0 until the first valid vector
	vecs      map[string]qvec // message id -> its unit vector
	lastQuery string          // the last input embedded, and its unit vector
	lastVec   qvec
}

// Configure sets the ranking's configuration (memory applies its
// defaults) and empties the cache. Call it once, before any other method.
func (s *Semantic) Configure(cfg SemanticConfig) {
	s.cfg = cfg
	s.vecs = map[string]qvec{}
}

// Config returns the configuration in use.
func (s *Semantic) Config() SemanticConfig { return s.cfg }

// Cached returns how many message vectors the cache holds.
func (s *Semantic) Cached() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.vecs)
}

// Forget empties the cache of message vectors, as in a new process.
func (s *Semantic) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.vecs)
}

// ranged is a message within the semantic range: its position and id.
type ranged struct {
	pos int
	id  string
}

// Hits returns the best semantic matches of query among the messages
// before position cut of the history (the most recent Limit of them, system
// messages and empty ones left out), best first, Score the cosine, at most
// [MaxHits]; nil without an embedder or for cut <= 0. It embeds the input
// (not again for the same input as last time) and the range's messages not
// cached yet, in batches of [EmbedBatch] (those done stay cached when a
// later one fails); the embedder's calls are bounded by ctx even when it
// ignores ctx, and its panics are errors. mu is the lock of win: Hits
// reads win only holding it, and embeds without it.
func (s *Semantic) Hits(ctx context.Context, query string, cut int, win *conversation.Log, mu sync.Locker) ([]store.Hit, error) {
	if s.cfg.Embedder == nil || cut <= 0 {
		return nil, nil
	}
	qv, err := s.queryVector(ctx, query)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	rng, missing, texts := s.rangeOf(win, cut)
	mu.Unlock()
	for i := 0; i < len(texts); i += EmbedBatch {
		j := min(i+EmbedBatch, len(texts))
		if err := s.embedBatch(ctx, missing[i:j], texts[i:j]); err != nil {
			return nil, err
		}
	}
	return s.rank(qv, rng), nil
}

// rangeOf returns the messages of the semantic range (the last limit
// positions before cut, system messages and empty texts left out), and
// the ids and texts (capped) of those not cached yet; it drops the cached
// vectors of messages out of the range when, with those missing, the
// cache would hold more than the limit. Requires the lock of win.
func (s *Semantic) rangeOf(win *conversation.Log, cut int) (rng []ranged, missing, texts []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cut = min(cut, win.Len())
	lo := max(0, cut-s.cfg.Limit)
	rng = make([]ranged, 0, cut-lo)
	for q := lo; q < cut; q++ {
		id, mc := win.ID(q), win.Message(q)
		if _, ok := s.vecs[id]; ok {
			rng = append(rng, ranged{q, id})
			continue
		}
		text := msg.Text(mc)
		if mc.Role == llms.ChatMessageTypeSystem || text == "" {
			continue
		}
		rng = append(rng, ranged{q, id})
		missing = append(missing, id)
		texts = append(texts, msg.HeadBytes(text, maxEmbedBytes))
	}
	if len(s.vecs)+len(missing) > s.cfg.Limit {
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
func (s *Semantic) queryVector(ctx context.Context, query string) (qvec, error) {
	s.mu.Lock()
	if s.lastVec.v != nil && s.lastQuery == query {
		defer s.mu.Unlock()
		return s.lastVec, nil
	}
	s.mu.Unlock()
	v, _, err := guard.Call(ctx, "embedder", func(ctx context.Context) ([]float32, error) { return s.cfg.Embedder.EmbedQuery(ctx, query) })
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
func (s *Semantic) embedBatch(ctx context.Context, ids, texts []string) error {
	vs, _, err := guard.Call(ctx, "embedder", func(ctx context.Context) ([][]float32, error) {
		return s.cfg.Embedder.EmbedDocuments(ctx, slices.Clone(texts)) // langchaingo's may rewrite them
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
// whose dimension is not the cache's (set by the first valid vector).
// Requires s.mu.
func (s *Semantic) unitLocked(v []float32) (qvec, error) {
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
// threshold, best first (newer first on a tie), at most MaxHits.
func (s *Semantic) rank(qv qvec, rng []ranged) []store.Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	var hits []store.Hit
	for _, r := range rng {
		if dot := dot(s.vecs[r.id], qv); dot >= s.cfg.Threshold {
			hits = append(hits, store.Hit{Pos: r.pos, Score: dot})
		}
	}
	slices.SortFunc(hits, func(a, b store.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Pos, a.Pos))
	})
	return hits[:min(len(hits), MaxHits)]
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
