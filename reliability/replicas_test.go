package reliability

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/pgtest"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// replicaRun is one run of N replicas on one conversation.
type replicaRun struct {
	replicas, turns int
	kill            time.Duration        // terminate the replicas' backends this often (0: never)
	backoff         conversation.Backoff // the adapters' retry policy (zero: the default)
}

// replicaOutcome is what a run saw.
type replicaOutcome struct {
	errs      []string
	failed    map[int]bool // turns whose caller got an error
	ended     int64        // backends terminated
	calls     int64        // summarizer calls
	turnsPerS float64
}

const replicaSession = "conv-replicas"

var shownRef = regexp.MustCompile(`ref:([A-Za-z0-9_.-]+)`)

// toolTurn reports whether turn i calls a tool.
func toolTurn(i int) bool { return i%3 == 0 }

// replicaModel answers turn i with a read_file call when toolTurn(i) and
// the last message is the user's, else with turn i's answer; it records
// the refs it was shown.
type replicaModel struct {
	mu   sync.Mutex
	refs map[string]bool
}

var turnNumber = regexp.MustCompile(`U(\d{4}):`)

func (f *replicaModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	turn := -1
	f.mu.Lock()
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				for _, r := range shownRef.FindAllStringSubmatch(t.Text, -1) {
					f.refs[r[1]] = true
				}
				if m.Role == llms.ChatMessageTypeHuman {
					if n := turnNumber.FindStringSubmatch(t.Text); n != nil {
						fmt.Sscan(n[1], &turn)
					}
				}
			}
		}
	}
	f.mu.Unlock()
	if last := msgs[len(msgs)-1]; last.Role == llms.ChatMessageTypeHuman && toolTurn(turn) {
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{{
			ID: fmt.Sprintf("call_%04d", turn), Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"m%d.go"}`, turn)}}}}}}, nil
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: replicaAnswer(turn)}}}, nil
}

func (f *replicaModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, f, prompt, opts...)
}

// drive runs the turns concurrently, each replica taking the next turn,
// and collects the callers' errors.
func drive(rr replicaRun, turn func(r, i int) error) (errs []string, failed map[int]bool, perS float64) {
	var next atomic.Int64
	var mu sync.Mutex
	failed = map[int]bool{}
	var wg sync.WaitGroup
	start := time.Now()
	for r := range rr.replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < rr.turns; i = int(next.Add(1)) - 1 {
				if err := turn(r, i); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Sprintf("turn %d on replica %d: %v", i, r, err))
					failed[i] = true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return errs, failed, float64(rr.turns) / time.Since(start).Seconds()
}

// runMiddlewareReplicas runs the middleware on rr.replicas replicas: each
// turn is a user message, and for a tool turn a tool round served by the
// next replica, then the answer.
func runMiddlewareReplicas(t *testing.T, rr replicaRun) (replicaOutcome, *pgstore.Store, *replicaModel) {
	dsn := replicaDSN(t)
	app := randomName(t, "rel")
	stores := replicaStores(t, withAppName(t, dsn, app), app+"_", rr.replicas)
	sum := newCountingSummarizer(30 * time.Millisecond)
	fake := &replicaModel{refs: map[string]bool{}}
	models := make([]*middleware.Model, len(stores))
	for i, s := range stores {
		models[i] = middleware.Wrap(fake, replicaCompactor(t, sum), middleware.WithStore(s), middleware.WithBackoff(rr.backoff))
	}
	ctx := middleware.WithSession(context.Background(), replicaSession)
	var tmu sync.Mutex
	transcript := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a careful coding agent. Use read_file to read files.")}
	var halt func() int64
	if rr.kill > 0 {
		halt = pgtest.Terminate(t, dsn, app, rr.kill)
	}
	errs, failed, perS := drive(rr, func(r, i int) error {
		tmu.Lock()
		msgs := append(append([]llms.MessageContent(nil), transcript...), llms.TextParts(llms.ChatMessageTypeHuman, replicaUser(i)))
		tmu.Unlock()
		resp, err := models[r].GenerateContent(ctx, msgs)
		if err != nil {
			return err
		}
		if calls := resp.Choices[0].ToolCalls; len(calls) > 0 {
			msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{calls[0]}},
				llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{
					ToolCallID: calls[0].ID, Name: "read_file", Content: replicaToolOutput(i)}}})
			if resp, err = models[(r+1)%len(models)].GenerateContent(ctx, msgs); err != nil {
				return fmt.Errorf("tool round: %w", err)
			}
		}
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, resp.Choices[0].Content))
		tmu.Lock()
		transcript = append(transcript, msgs[len(msgs)-countNew(msgs):]...)
		tmu.Unlock()
		return nil
	})
	out := replicaOutcome{errs: errs, failed: failed, calls: sum.calls.Load(), turnsPerS: perS}
	if halt != nil {
		out.ended = halt()
	}
	return out, checkingStore(t, dsn, app+"_"), fake
}

// checkingStore opens a store of its own on the tables of prefix, for the
// checks after a run (the replicas' pools may hold terminated
// connections).
func checkingStore(t *testing.T, dsn, prefix string) *pgstore.Store {
	s, err := pgstore.New(context.Background(), dsn, pgstore.WithTablePrefix(prefix))
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// countNew returns how many messages at the end of msgs belong to the
// last turn: from its user message on.
func countNew(msgs []llms.MessageContent) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llms.ChatMessageTypeHuman {
			return len(msgs) - i
		}
	}
	return len(msgs)
}

// runMemoryReplicas runs memory.Memory on rr.replicas replicas: each turn
// loads the memory for its input, then saves the turn (with a tool step
// for a tool turn).
func runMemoryReplicas(t *testing.T, rr replicaRun) (replicaOutcome, *pgstore.Store) {
	dsn := replicaDSN(t)
	app := randomName(t, "rel")
	stores := replicaStores(t, withAppName(t, dsn, app), app+"_", rr.replicas)
	sum := newCountingSummarizer(30 * time.Millisecond)
	mems := make([]*memory.Memory, len(stores))
	for i, s := range stores {
		mems[i] = memory.New(replicaCompactor(t, sum), memory.WithStore(s), memory.WithSessionID(replicaSession), memory.WithBackoff(rr.backoff))
	}
	var halt func() int64
	if rr.kill > 0 {
		halt = pgtest.Terminate(t, dsn, app, rr.kill)
	}
	ctx := context.Background()
	errs, failed, perS := drive(rr, func(r, i int) error {
		in := map[string]any{"input": replicaUser(i)}
		if _, err := mems[r].LoadMemoryVariables(ctx, in); err != nil {
			return fmt.Errorf("load: %w", err)
		}
		out := map[string]any{"output": replicaAnswer(i)}
		if toolTurn(i) {
			out["intermediate_steps"] = []schema.AgentStep{{
				Action:      schema.AgentAction{Tool: "read_file", ToolInput: fmt.Sprintf(`{"path":"m%d.go"}`, i), ToolID: fmt.Sprintf("call_%04d", i)},
				Observation: replicaToolOutput(i),
			}}
		}
		if err := mems[r].SaveContext(ctx, in, out); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		return nil
	})
	res := replicaOutcome{errs: errs, failed: failed, calls: sum.calls.Load(), turnsPerS: perS}
	if halt != nil {
		res.ended = halt()
	}
	for _, m := range mems {
		require.NoError(t, m.Close())
	}
	return res, checkingStore(t, dsn, app+"_")
}

// checkMiddlewareState checks the stored chain and that every ref the
// model was shown has its original in the store.
func checkMiddlewareState(t *testing.T, s *pgstore.Store, calls int64, faults bool, fake *replicaModel) {
	ctx := context.Background()
	st, err := s.Load(ctx, replicaSession)
	require.NoError(t, err)
	require.NotEmpty(t, st.Chain, "the conversation compacted")
	checkStraightChain(t, st.Chain, calls, faults)
	fake.mu.Lock()
	defer fake.mu.Unlock()
	for ref := range fake.refs {
		_, err := s.Original(ctx, replicaSession, ref)
		require.NoError(t, err, "the original of ref:%s shown to the model is stored", ref)
	}
}

// checkMemoryState checks the stored history (every turn whose caller
// succeeded once, none twice) and chain, through a fresh Memory.
func checkMemoryState(t *testing.T, s *pgstore.Store, rr replicaRun, o replicaOutcome) {
	ctx := context.Background()
	msgs, err := s.History(replicaSession).Messages(ctx)
	require.NoError(t, err)
	count := map[string]int{}
	for _, m := range msgs {
		if m.GetType() == llms.ChatMessageTypeHuman {
			count[m.GetContent()]++
		}
	}
	for i := range rr.turns {
		n := count[replicaUser(i)]
		switch {
		case n > 1:
			t.Errorf("turn %d is in the history %d times", i, n)
		case n == 0 && !o.failed[i]:
			t.Errorf("turn %d succeeded but is not in the history", i)
		}
	}
	fresh := memory.New(replicaCompactor(t, newCountingSummarizer(0)), memory.WithStore(s), memory.WithSessionID(replicaSession))
	defer fresh.Close()
	require.NoError(t, fresh.Verify(ctx))
	recs, err := fresh.Records(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, recs, "the conversation compacted")
	checkStraightChain(t, recs, o.calls, rr.kill > 0)
}

// replicaTurns is the number of turns of the replica tests:
// COMPACT_REPLICA_TURNS, default 300 (a few seconds per run).
func replicaTurns() int { return envInt("COMPACT_REPLICA_TURNS", 300) }

// TestReplicasOneConversation: eight replicas serve one conversation
// through PostgreSQL, turns concurrent, through either adapter: no caller
// error, no turn lost or repeated, one straight chain, one summarizer call
// per summarized record.
func TestReplicasOneConversation(t *testing.T) {
	rr := replicaRun{replicas: 8, turns: replicaTurns()}
	t.Run("middleware", func(t *testing.T) {
		o, s, fake := runMiddlewareReplicas(t, rr)
		require.Empty(t, o.errs)
		checkMiddlewareState(t, s, o.calls, false, fake)
		t.Logf("%d turns, %.1f turns/s, %d summarizer calls", rr.turns, o.turnsPerS, o.calls)
	})
	t.Run("memory", func(t *testing.T) {
		o, s := runMemoryReplicas(t, rr)
		require.Empty(t, o.errs)
		checkMemoryState(t, s, rr, o)
		t.Logf("%d turns, %.1f turns/s, %d summarizer calls", rr.turns, o.turnsPerS, o.calls)
	})
}

// TestReplicasBackendsTerminated: the replicas' database backends are
// terminated every 250 ms: reads and writes are retried (pgstore's retry
// policy), no turn is lost, the chain stays straight, and no caller sees
// an error through either adapter: a history append (the memory's
// SaveContext) or a save cut off after it was sent is looked up by its
// batch id and sent again only if it is absent (pgstore's crash
// semantics), so it is neither lost nor doubled. The replicas run with
// the default policies. (pgstore's own soak tests terminate every 100 ms;
// here every turn of four replicas reconnects, and on a loaded machine a
// reconnection takes most of 100 ms.)
func TestReplicasBackendsTerminated(t *testing.T) {
	rr := replicaRun{replicas: 4, turns: replicaTurns(), kill: 250 * time.Millisecond}
	t.Run("middleware", func(t *testing.T) {
		o, s, fake := runMiddlewareReplicas(t, rr)
		require.Positive(t, o.ended, "backends were terminated")
		require.Empty(t, o.errs)
		checkMiddlewareState(t, s, o.calls, true, fake)
		t.Logf("%d backends terminated", o.ended)
	})
	t.Run("memory", func(t *testing.T) {
		o, s := runMemoryReplicas(t, rr)
		require.Positive(t, o.ended, "backends were terminated")
		require.Empty(t, o.errs)
		checkMemoryState(t, s, rr, o)
		t.Logf("%d backends terminated", o.ended)
	})
}
