package reliability

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// killLeaseTTL is the compaction lease of the SIGKILL test.
const killLeaseTTL = 2 * time.Second

// killTranscript is the conversation up to turn i's user message.
func killTranscript(i int) []llms.MessageContent {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a careful coding agent.")}
	for j := range i {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, replicaUser(j)),
			llms.TextParts(llms.ChatMessageTypeAI, replicaAnswer(j)+"\n"+replicaToolOutput(j)))
	}
	return append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, replicaUser(i)))
}

// TestKilledReplicaChild is the replica the SIGKILL test kills: it runs
// turns, printing each turn's number, until its summarizer is called,
// which prints SUMMARIZING and blocks. It runs only as that child.
func TestKilledReplicaChild(t *testing.T) {
	dsn, prefix := os.Getenv("COMPACT_KILL_CHILD_DSN"), os.Getenv("COMPACT_KILL_CHILD_PREFIX")
	if dsn == "" {
		t.Skip("only run as the child of TestReplicaKilledMidSummary")
	}
	ctx := context.Background()
	s, err := pgstore.New(ctx, dsn, pgstore.WithTablePrefix(prefix))
	require.NoError(t, err)
	sum := newCountingSummarizer(0)
	sum.onCall = func(context.Context) error {
		fmt.Println("SUMMARIZING")
		select {} // until killed
	}
	m := middleware.Wrap(&replicaModel{refs: map[string]bool{}}, replicaCompactor(t, sum), middleware.WithStore(s),
		middleware.WithLeaseTiming(killLeaseTTL, time.Minute))
	sctx := middleware.WithSession(ctx, replicaSession)
	for i := range 200 {
		fmt.Printf("TURN %d\n", i)
		_, err := m.GenerateContent(sctx, killTranscript(i))
		require.NoError(t, err)
	}
	t.Fatal("200 turns without a summary")
}

// TestReplicaKilledMidSummary: a replica is SIGKILLed while its
// summarizer runs under the compaction lease; another replica, given the
// same conversation, serves its calls meanwhile, takes the lease once its
// TTL has passed, summarizes, and stores the next record of the chain.
func TestReplicaKilledMidSummary(t *testing.T) {
	dsn := replicaDSN(t)
	prefix := randomName(t, "relk") + "_"
	s := replicaStores(t, dsn, prefix, 1)[0]
	cmd := exec.Command(os.Args[0], "-test.run", "^TestKilledReplicaChild$", "-test.v")
	cmd.Env = append(os.Environ(), "COMPACT_KILL_CHILD_DSN="+dsn, "COMPACT_KILL_CHILD_PREFIX="+prefix)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	turn, summarizing := -1, false
	lines := bufio.NewScanner(out)
	for !summarizing && lines.Scan() {
		line := lines.Text()
		if _, err := fmt.Sscanf(line, "TURN %d", &turn); err == nil {
			continue
		}
		summarizing = strings.Contains(line, "SUMMARIZING")
	}
	require.True(t, summarizing, "the child reached its summarizer (last turn %d)", turn)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	killed := time.Now()

	ctx := context.Background()
	before, err := s.Load(ctx, replicaSession)
	require.NoError(t, err)
	sum := newCountingSummarizer(0)
	m := middleware.Wrap(&replicaModel{refs: map[string]bool{}}, replicaCompactor(t, sum), middleware.WithStore(s),
		middleware.WithLeaseTiming(killLeaseTTL, time.Minute))
	// The survivor serves the conversation's next calls at once (at the
	// emergency ratio without the lease, rule-based and not stored), and
	// stores the next record once the dead holder's lease has expired.
	var after store.State
	for i := turn; len(after.Chain) <= len(before.Chain) && time.Since(killed) < killLeaseTTL+10*time.Second; i++ {
		_, err = m.GenerateContent(middleware.WithSession(ctx, replicaSession), killTranscript(i))
		require.NoError(t, err, "turn %d", i)
		after, err = s.Load(ctx, replicaSession)
		require.NoError(t, err)
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(killed)
	require.Len(t, after.Chain, len(before.Chain)+1, "the survivor stored the next record")
	require.Positive(t, sum.calls.Load(), "the survivor summarized")
	last := after.Chain[len(after.Chain)-1]
	require.Equal(t, summary.ModeLLM, last.Mode)
	if n := len(before.Chain); n > 0 {
		require.Equal(t, before.Chain[n-1].ID, last.ParentID, "the chain stays straight")
	}
	// Liveness, not speed: the survivor waited for the dead holder's lease
	// (ttl), not for its own wait bound (a minute).
	require.Less(t, took, killLeaseTTL+10*time.Second, "progress within the lease's ttl")
	require.GreaterOrEqual(t, took, killLeaseTTL/2, "the dead holder's lease was respected")
	t.Logf("progress %v after the SIGKILL (lease ttl %v)", took.Round(time.Millisecond), killLeaseTTL)
}
