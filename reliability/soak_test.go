package reliability

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/middleware"
	"github.com/tmc/langchaingo/llms"
)

// soakFlag selects the long soak (see doc.go): go test -race -run TestSoak ./reliability -soak
var soakFlag = flag.Bool("soak", false, "run the long soak: 1,000 sessions x 200 turns (also env COMPACT_SOAK=1)")

// soakSize returns the number of sessions and turns of the soak: 40 x 50
// by default (10 x 30 with -short), 1,000 x 200 with -soak or
// COMPACT_SOAK=1; COMPACT_SOAK_SESSIONS and COMPACT_SOAK_TURNS override.
func soakSize() (sessions, turns int) {
	sessions, turns = 40, 50
	if testing.Short() {
		sessions, turns = 10, 30
	}
	if *soakFlag || os.Getenv("COMPACT_SOAK") == "1" {
		sessions, turns = 1_000, 200
	}
	return envInt("COMPACT_SOAK_SESSIONS", sessions), envInt("COMPACT_SOAK_TURNS", turns)
}

// conversationGen grows one agent conversation turn by turn from real tool
// outputs and user messages of the trajectories.
type conversationGen struct {
	r     *rand.Rand
	tools []toolSample
	users []string
	msgs  []llms.MessageContent
	calls int
}

func newConversationGen(seed int64, tools []toolSample, users []string) *conversationGen {
	g := &conversationGen{r: rand.New(rand.NewSource(seed)), tools: tools, users: users}
	g.msgs = []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, fmt.Sprintf("You are coding agent #%d. Work in small steps and run the tests.", seed)),
		llms.TextParts(llms.ChatMessageTypeHuman, capText(users[g.r.Intn(len(users))], 3_000)),
	}
	return g
}

func capText(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "")
	}
	return s
}

// turn appends one turn: a tool round of one to three parallel calls
// (60%), a user message (20%) or an assistant message (20%).
func (g *conversationGen) turn() {
	switch x := g.r.Intn(10); {
	case x < 6:
		k := 1 + g.r.Intn(3)
		ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		var results []llms.MessageContent
		for j := 0; j < k; j++ {
			g.calls++
			s := g.tools[g.r.Intn(len(g.tools))]
			id := fmt.Sprintf("call_%d", g.calls)
			ai.Parts = append(ai.Parts, llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: s.name, Arguments: s.args}})
			results = append(results, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: s.name, Content: capText(s.output, 12_000)}}})
		}
		g.msgs = append(append(g.msgs, ai), results...)
	case x < 8:
		g.msgs = append(g.msgs, llms.TextParts(llms.ChatMessageTypeHuman, capText(g.users[g.r.Intn(len(g.users))], 2_000)))
	default:
		g.msgs = append(g.msgs, llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("Step %d: I will look at the failing test next.", len(g.msgs))))
	}
}

// soakStats are the figures of a soak run.
type soakStats struct {
	turns, compactions, callerCancels, retriedTurns atomic.Int64
	modes                                           sync.Map // mode -> *atomic.Int64
	lostChecks, unchangedChecks                     atomic.Int64
}

func (s *soakStats) mode(m string) {
	v, _ := s.modes.LoadOrStore(m, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (s *soakStats) modeCounts() string {
	var parts []string
	s.modes.Range(func(k, v any) bool {
		parts = append(parts, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// TestSoak drives many sessions of many turns through one shared
// compactor, concurrently, under -race, with summarizer faults injected at
// random (see fault: transport errors, hangs past the attempt deadline,
// garbage, oversized and 2 MB replies, panics, empty responses, and the
// caller's context canceled mid-call). After every turn: I1-I4 hold; every
// tenth turn and the last, I5 holds and nothing is lost (every input
// message is in the output verbatim or masked, or covered by the session's
// summary chain); a call canceled by its caller returns the context's
// error and leaves the session unchanged, and the turn then succeeds.
// Afterwards the goroutines and the heap return to their baseline (leak
// check). Size: see soakSize.
func TestSoak(t *testing.T) {
	sessions, turns := soakSize()
	names, convs := loadTrajectories(t)
	tools, users := toolSamples(convs, names), userTexts(convs, names)

	baseG, baseHeap := leakBaseline(t)

	model := newFaultyModel(1, 0.35)
	var st soakStats
	start := time.Now()
	func() {
		c, err := compact.New(
			compact.WithContextWindow(8_000),
			compact.WithCustomSummarizer(llmsummary.New([]llms.Model{model}, llmsummary.WithRetryPolicy(llmsummary.RetryPolicy{
				MaxRetries: 1, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, AttemptTimeout: 30 * time.Millisecond,
			}))),
			onEvent(func(e compact.Event) { st.compactions.Add(1); st.mode(e.Mode) }),
		)
		if err != nil {
			t.Fatal(err)
		}
		work := make(chan int)
		var wg sync.WaitGroup
		var failed atomic.Bool
		var done atomic.Int64
		progress := func() {
			if d := done.Add(1); sessions >= 100 && d%int64(sessions/10) == 0 {
				t.Logf("progress: %d of %d sessions done after %s", d, sessions, time.Since(start).Round(time.Second))
			}
		}
		for w := 0; w < 4*runtime.GOMAXPROCS(0); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for id := range work {
					if failed.Load() {
						continue
					}
					if err := soakSession(c, id, turns, tools, users, &st); err != nil {
						failed.Store(true)
						t.Errorf("session %d: %v", id, err)
					}
					progress()
				}
			}()
		}
		for i := 0; i < sessions; i++ {
			work <- i
		}
		close(work)
		wg.Wait()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("heap with the compactor alive: %.1f MB", float64(ms.HeapAlloc)/(1<<20))
	}()
	elapsed := time.Since(start)

	t.Logf("soak: %d sessions x %d turns = %d turns in %s; %d compactions (%s)",
		sessions, turns, st.turns.Load(), elapsed.Round(time.Millisecond), st.compactions.Load(), st.modeCounts())
	t.Logf("soak: %d faults injected into the summarizer model (%v), all survived; %d caller cancellations survived (session unchanged, turn retried)",
		model.total(), model.counts(), st.callerCancels.Load())
	t.Logf("soak: %d nothing-lost checks, %d input-unchanged checks", st.lostChecks.Load(), st.unchangedChecks.Load())
	if t.Failed() {
		return
	}
	if model.total() == 0 || st.compactions.Load() == 0 {
		t.Fatalf("the soak injected %d faults over %d compactions: it tested nothing", model.total(), st.compactions.Load())
	}
	msg, err := leakCheck(baseG, baseHeap, 100)
	t.Logf("leak check: %s", msg)
	if err != nil {
		t.Error(err)
	}
}

// soakSession runs one session of turns turns.
func soakSession(c *compact.Compactor, id, turns int, tools []toolSample, users []string, st *soakStats) error {
	g := newConversationGen(int64(id), tools, users)
	s := compact.NewSession(fmt.Sprintf("soak-%d", id))
	// The session retains only the newest records of its chain; the whole
	// chain is kept from each result, as the engine documents.
	var chain []compact.SummaryRecord
	for turn := 0; turn < turns; turn++ {
		g.turn()
		in := g.msgs
		deep := turn%10 == 9 || turn == turns-1
		var before []llms.MessageContent
		if deep {
			before = cloneMessages(in)
		}
		var res *compact.Result
		for attempt := 0; ; attempt++ {
			if attempt == 20 {
				return fmt.Errorf("turn %d: canceled 20 times in a row", turn)
			}
			state, err := s.MarshalJSON()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithCancel(context.Background())
			ctx = context.WithValue(ctx, cancelKey{}, cancel)
			res, err = c.Compact(ctx, s, in)
			canceled := ctx.Err() != nil
			cancel()
			if err == nil {
				break
			}
			if !canceled || !errors.Is(err, context.Canceled) {
				return fmt.Errorf("turn %d: Compact: %w", turn, err)
			}
			after, _ := s.MarshalJSON()
			if !bytes.Equal(state, after) {
				return fmt.Errorf("turn %d: a canceled Compact changed the session", turn)
			}
			st.callerCancels.Add(1)
			if attempt == 0 {
				st.retriedTurns.Add(1)
			}
		}
		st.turns.Add(1)
		if r := res.Summary; r != nil && (len(chain) == 0 || chain[len(chain)-1].ID != r.ID) {
			chain = append(chain, *r)
		}
		if err := checkOutput(c, in, res); err != nil {
			return fmt.Errorf("turn %d (%d messages): %w", turn, len(in), err)
		}
		if deep {
			if err := checkUnchanged(before, in); err != nil {
				return fmt.Errorf("turn %d: %w", turn, err)
			}
			st.unchangedChecks.Add(1)
			if lost := coverage(in, res.Messages, chain); len(lost) > 0 {
				return fmt.Errorf("turn %d: %d input messages lost (first: %d, %s)", turn, len(lost), lost[0], in[lost[0]].Role)
			}
			st.lostChecks.Add(1)
		}
	}
	return nil
}

// leakCheck waits (up to polls x 50 ms) for the goroutines started since
// the baseline to end and checks that the goroutine count and the live
// heap, after garbage collection, are back to their baselines within a
// tolerance (the runtime and the testing package keep a few of their own).
// It returns what it measured, and an error on a leak.
func leakCheck(baseG int, baseHeap uint64, polls int) (string, error) {
	const goroutineSlack = 2
	const heapSlack = 8 << 20
	var g int
	for i := 0; i < polls; i++ {
		runtime.GC()
		if g = runtime.NumGoroutine(); g <= baseG+goroutineSlack {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	msg := fmt.Sprintf("goroutines %d (baseline %d), heap %.1f MB (baseline %.1f MB)",
		g, baseG, float64(ms.HeapAlloc)/(1<<20), float64(baseHeap)/(1<<20))
	if g > baseG+goroutineSlack {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		return msg, fmt.Errorf("goroutine leak: %d goroutines, baseline %d\n%s", g, baseG, buf[:n])
	}
	if ms.HeapAlloc > baseHeap+heapSlack {
		return msg, fmt.Errorf("heap not back to baseline: %d bytes, baseline %d (+%d allowed)", ms.HeapAlloc, baseHeap, heapSlack)
	}
	return msg, nil
}

// leakBaseline loads the process-wide caches first (the tokenizer's
// encodings, the extractors' patterns), then returns the goroutine count
// and the live heap after garbage collection.
func leakBaseline(t testing.TB) (int, uint64) {
	t.Helper()
	c, err := compact.New()
	if err != nil {
		t.Fatal(err)
	}
	c.CountTokens([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "warm up the tokenizer")})
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapAlloc
}

// TestConcurrentSameSession calls Compact on one session from several
// goroutines at once, each with a prefix of the same growing conversation,
// and middleware.Wrap's GenerateContent on one session id likewise: the
// calls are serialized inside the engine (no data race under -race), and
// every output satisfies I1-I5 for its own input.
func TestConcurrentSameSession(t *testing.T) {
	names, convs := loadTrajectories(t)
	g := newConversationGen(99, toolSamples(convs, names), userTexts(convs, names))
	for i := 0; i < 40; i++ {
		g.turn()
	}
	conv := g.msgs
	c, err := compact.New(compact.WithContextWindow(6_000), compact.WithCustomSummarizer(llmsummary.New([]llms.Model{newFaultyModel(3, 0.3)},
		llmsummary.WithRetryPolicy(llmsummary.RetryPolicy{MaxRetries: 1, BaseDelay: time.Millisecond, AttemptTimeout: 50 * time.Millisecond}))))
	if err != nil {
		t.Fatal(err)
	}
	s := compact.NewSession("shared")
	m := middleware.Wrap(&recordingModel{fn: func([]llms.MessageContent) string { return "ok" }}, c)
	ctx := middleware.WithSession(context.Background(), "shared")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := 2 + w; k <= len(conv); k += 3 {
				in := conv[:k]
				res, err := c.Compact(context.Background(), s, in)
				if err == nil {
					err = checkOutput(c, in, res)
				}
				if err == nil {
					_, err = m.GenerateContent(ctx, in)
				}
				if err != nil {
					errs <- fmt.Errorf("worker %d, %d messages: %w", w, k, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s.Stats().Compactions == 0 {
		t.Error("no compaction ran: the test exercised nothing")
	}
}
