package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcompact/compact/internal/embedtest"
	"github.com/agentcompact/compact/memory/internal/retrieval"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
)

// The turn of semChatTurn that states a fact sharing no word with
// carQuestion, only a meaning ("automobile", "sedan" for "car").
const (
	carFact     = "My automobile is a red sedan."
	carQuestion = "What car do I drive now?"
)

// embedBatch is how many messages one EmbedDocuments call is given.
const embedBatch = retrieval.EmbedBatch

// semChatTurn is turn i of a long chat: chatTurn's (Marisol at turn 3),
// with carFact at turn 5.
func semChatTurn(i int) (in, out string) {
	if i == 5 {
		return carFact, "Red suits a sedan well!"
	}
	return chatTurn(i)
}

// fillSemChat saves n turns of semChatTurn into m.
func fillSemChat(t testing.TB, m *Memory, n int) { t.Helper(); fillTurns(t, m, n, semChatTurn) }

// retrievedText returns the retrieved block of a load's string context, or "".
func retrievedText(t testing.TB, m *Memory, input string) string {
	t.Helper()
	v, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": input})
	require.NoError(t, err)
	s := v["history"].(string)
	if i := strings.Index(s, RetrievedPreamble); i >= 0 {
		return s[i:]
	}
	return ""
}

// TestHybridSemanticOnlyMatch: a turn that shares no word with the input,
// only a meaning, is retrieved with an embedder and not without; a load
// with the same input is the same.
func TestHybridSemanticOnlyMatch(t *testing.T) {
	c := testCompactor(t, 2000)
	lexical := New(c)
	fillSemChat(t, lexical, 80)
	require.Empty(t, retrievedText(t, lexical, carQuestion), "no shared word: nothing lexical")

	m := New(c, WithEmbedder(embedtest.New(256)))
	fillSemChat(t, m, 80)
	got := retrievedText(t, m, carQuestion)
	require.Regexp(t, `\[ref:[a-z2-7]{8}\] Human: `+carFact, got)
	require.Contains(t, got, "AI: Red suits a sedan well!", "with the reply of its turn")
	require.Equal(t, got, retrievedText(t, m, carQuestion), "the same input, the same context")
	st := m.RetrievalStats()
	require.Zero(t, st.SemanticErrors)
	require.Positive(t, st.Retrieved)

	// A threshold above the match's cosine (0.8) keeps it out.
	strict := New(c, WithEmbedder(embedtest.New(256)), WithSemanticThreshold(0.95))
	fillSemChat(t, strict, 80)
	require.Empty(t, retrievedText(t, strict, carQuestion))
}

// TestHybridKeepsLexicalHits: with an embedder, an input matching one turn
// by its words and another by meaning retrieves both.
func TestHybridKeepsLexicalHits(t *testing.T) {
	c := testCompactor(t, 2000)
	m := New(c, WithEmbedder(embedtest.New(256)))
	fillSemChat(t, m, 80)
	got := retrievedText(t, m, "Where does Marisol live, and what car do I drive?")
	require.Contains(t, got, "Human: By the way, my sister Marisol lives in Valparaiso")
	require.Contains(t, got, "Human: "+carFact)
}

// faultyEmbedder wraps embedtest's embedder with one fault.
type faultyEmbedder struct {
	inner   *embedtest.Embedder
	fault   string
	release chan struct{} // "hang" blocks until it is closed, ignoring ctx
}

func (f *faultyEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := f.inner.EmbedQuery(ctx, text)
	switch f.fault {
	case "query error":
		return nil, errors.New("embedding service unavailable")
	case "zero query":
		return make([]float32, len(v)), nil
	case "query dimension":
		return v[:len(v)/2], nil
	case "hang":
		<-f.release
	}
	return v, err
}

func (f *faultyEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := f.inner.EmbedDocuments(ctx, texts)
	switch {
	case f.fault == "documents error":
		return nil, errors.New("rate limited")
	case f.fault == "panic":
		panic("embedder bug")
	case f.fault == "count" && len(vs) > 0:
		return vs[1:], nil
	case f.fault == "nan" && len(vs) > 0:
		vs[len(vs)-1][0] = float32(math.NaN())
	case f.fault == "documents dimension" && len(vs) > 0:
		vs[0] = append(vs[0], 1)
	}
	return vs, err
}

// TestHybridDegrades: whatever goes wrong with the embedder, the load
// succeeds with the lexical ranking's context (that of a Memory without
// embedder), counts it in RetrievalStats.SemanticErrors and logs a warning.
func TestHybridDegrades(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 2000)
	const input = "Where does Marisol live, and what car do I drive?"
	lexical := New(c)
	fillSemChat(t, lexical, 80)
	want, err := lexical.LoadMemoryVariables(ctx, map[string]any{"input": input})
	require.NoError(t, err)
	require.Contains(t, want["history"], "Marisol lives in Valparaiso")
	for _, fault := range []string{"query error", "zero query", "query dimension", "documents error", "panic", "count", "nan", "documents dimension"} {
		t.Run(fault, func(t *testing.T) {
			var logs bytes.Buffer
			f := &faultyEmbedder{inner: embedtest.New(256)}
			m := New(c, WithEmbedder(f), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			fillSemChat(t, m, 80) // healthy: the vectors of the chat are cached
			if strings.HasPrefix(fault, "documents") || fault == "panic" || fault == "count" || fault == "nan" {
				// Messages not cached yet, so that documents are embedded.
				m.rt.Sem.Forget()
			}
			f.fault = fault
			got, err := m.LoadMemoryVariables(ctx, map[string]any{"input": input})
			require.NoError(t, err)
			require.Equal(t, want, got, "the lexical ranking's context")
			require.Equal(t, 1, m.RetrievalStats().SemanticErrors)
			require.Contains(t, logs.String(), "level=WARN msg=\"memory: semantic ranking failed; ranking lexically\"")

			f.fault = "" // recovered: semantic ranking again
			require.Contains(t, retrievedText(t, m, carQuestion), carFact)
			require.Equal(t, 1, m.RetrievalStats().SemanticErrors)
		})
	}
}

// TestHybridHangingEmbedder: an embedder that ignores the context does not
// hold the load past the caller's deadline.
func TestHybridHangingEmbedder(t *testing.T) {
	c := testCompactor(t, 2000)
	f := &faultyEmbedder{inner: embedtest.New(256), release: make(chan struct{})}
	defer close(f.release)
	m := New(c, WithEmbedder(f))
	fillSemChat(t, m, 80)
	f.fault = "hang"
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "A new question about my car?"})
	if err != nil {
		require.ErrorIs(t, err, context.DeadlineExceeded, "only the caller's own deadline fails the load")
	}
	require.Equal(t, 1, m.RetrievalStats().SemanticErrors+boolInt(err != nil), "the semantic ranking gave up at the deadline")
}

// boolInt is 1 for true, else 0.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestHybridCache: each message is embedded once, an input once while it
// repeats, and the cache holds no more vectors than the limit; messages
// older than the limit are found lexically only.
func TestHybridCache(t *testing.T) {
	c := testCompactor(t, 2000)
	e := embedtest.New(256)
	m := New(c, WithEmbedder(e))
	fillSemChat(t, m, 80)
	require.LessOrEqual(t, e.Texts(), 160+80, "each message once, each input once")
	retrievedText(t, m, "Tell me about the weather.") // embeds the last turn saved
	n := e.Texts()
	require.Contains(t, retrievedText(t, m, carQuestion), carFact)
	require.Equal(t, n+1, e.Texts(), "a new input: its embedding only")
	retrievedText(t, m, carQuestion)
	require.Equal(t, n+1, e.Texts(), "the same input again: nothing")

	small := New(c, WithEmbedder(embedtest.New(256)), WithEmbeddingLimit(10))
	fillSemChat(t, small, 80)
	require.NotContains(t, retrievedText(t, small, carQuestion), carFact, "beyond the limit")
	require.LessOrEqual(t, small.rt.Sem.Cached(), 10)
	require.NotZero(t, small.rt.Sem.Cached())
}

// TestHybridOptionDefaults: out-of-range option values mean the defaults.
func TestHybridOptionDefaults(t *testing.T) {
	c := testCompactor(t, 2000)
	for _, tc := range []struct {
		opts      []Option
		threshold float64
		limit     int
	}{
		{nil, DefaultSemanticThreshold, DefaultEmbeddingLimit},
		{[]Option{WithSemanticThreshold(0.7), WithEmbeddingLimit(100)}, 0.7, 100},
	} {
		m := New(c, tc.opts...)
		cfg := m.rt.Sem.Config()
		require.Nil(t, cfg.Embedder, "no embedder by default")
		require.Equal(t, tc.threshold, cfg.Threshold)
		require.Equal(t, tc.limit, cfg.Limit)
	}
}

// TestHybridConcurrent: loads and saves from several goroutines on one
// Memory with an embedder (run with -race).
func TestHybridConcurrent(t *testing.T) {
	c := testCompactor(t, 2000)
	m := New(c, WithEmbedder(embedtest.New(256)))
	fillSemChat(t, m, 60)
	before := m.RetrievalStats().Loads
	var wg sync.WaitGroup
	const workers, rounds = 4, 10
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for i := range rounds {
				in := fmt.Sprintf("worker %d round %d: what car do I drive, and where does Marisol live?", w, i)
				if _, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in}); err != nil {
					t.Error(err)
					return
				}
				if err := m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": "Noted."}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	st := m.RetrievalStats()
	require.Equal(t, before+workers*rounds, st.Loads)
	require.Zero(t, st.SemanticErrors)
	require.Contains(t, retrievedText(t, m, carQuestion), carFact)
}

// TestHybridOpenAIEmbedder: langchaingo's embedder over its OpenAI client,
// pointed at a loopback server that answers with embedtest's vectors,
// retrieves the semantic-only match; the messages go in batches.
func TestHybridOpenAIEmbedder(t *testing.T) {
	vec := embedtest.New(256)
	var requests, maxBatch atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-embedding" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		requests.Add(1)
		if n := int64(len(req.Input)); n > maxBatch.Load() {
			maxBatch.Store(n)
		}
		type datum struct {
			Object    string    `json:"object"`
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		resp := struct {
			Object string  `json:"object"`
			Data   []datum `json:"data"`
			Model  string  `json:"model"`
		}{Object: "list", Model: req.Model}
		for i, text := range req.Input {
			resp.Data = append(resp.Data, datum{"embedding", vec.Vector(text), i})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	defer srv.Close()
	client, err := openai.New(openai.WithToken("test"), openai.WithBaseURL(srv.URL), openai.WithEmbeddingModel("test-embedding"))
	require.NoError(t, err)
	emb, err := embeddings.NewEmbedder(client)
	require.NoError(t, err)

	c := testCompactor(t, 2000)
	m := New(c, WithEmbedder(emb), WithReturnMessages(true))
	fillSemChat(t, m, 80)
	v, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": carQuestion})
	require.NoError(t, err)
	msgs := v["history"].([]llms.ChatMessage)
	last := msgs[len(msgs)-1].GetContent()
	require.True(t, strings.HasPrefix(last, RetrievedPreamble))
	require.Contains(t, last, carFact)
	require.Zero(t, m.RetrievalStats().SemanticErrors)
	require.Positive(t, requests.Load())
	require.LessOrEqual(t, maxBatch.Load(), int64(embedBatch))
}

// secondBatchFails is an embedder whose second EmbedDocuments call fails.
type secondBatchFails struct {
	*embedtest.Embedder
	calls atomic.Int32
}

func (e *secondBatchFails) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	if e.calls.Add(1) == 2 {
		return nil, errors.New("rate limited")
	}
	return e.Embedder.EmbedDocuments(ctx, texts)
}

// TestHybridKeepsBatchesDone: when a batch fails, the batches embedded
// before it stay cached, so the next load embeds only the rest.
func TestHybridKeepsBatchesDone(t *testing.T) {
	c := testCompactor(t, 2000)
	lexical := New(c)
	fillSemChat(t, lexical, 200)
	e := &secondBatchFails{Embedder: embedtest.New(256)}
	m := New(c, WithReturnMessages(true), WithChatHistory(lexical.ChatHistory()), WithEmbedder(e))
	retrieved := func() string {
		v, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": carQuestion})
		require.NoError(t, err)
		msgs := v["history"].([]llms.ChatMessage)
		return msgs[len(msgs)-1].GetContent()
	}
	retrieved() // the whole history out of the context at once: several batches, the second fails
	require.Equal(t, 1, m.RetrievalStats().SemanticErrors)
	require.Equal(t, embedBatch, m.rt.Sem.Cached(), "the first batch stays")
	texts := e.Texts()
	require.Contains(t, retrieved(), carFact)
	require.Equal(t, 1, m.RetrievalStats().SemanticErrors)
	require.Equal(t, e.Texts()-texts, m.rt.Sem.Cached()-embedBatch, "only the rest embedded")
}
