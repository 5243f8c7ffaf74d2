package sqlitestore

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// Environment of the child processes these tests start by re-running the
// test binary.
const (
	envDB    = "COMPACT_SQLITESTORE_CHILD_DB"
	envPoint = "COMPACT_SQLITESTORE_CHILD_POINT" // where the child stops: summarize, save, history, or "" (never)
	envHit   = "COMPACT_SQLITESTORE_CHILD_HIT"   // at the n-th time it gets there
	envTurns = "COMPACT_SQLITESTORE_CHILD_TURNS" // turns to run
	envFirst = "COMPACT_SQLITESTORE_CHILD_FIRST" // number of the first turn
)

const crashSession = "crash"

// TestChildProcess is the body of the child processes; it does nothing in
// a normal test run. It runs turns on the database named by envDB,
// printing "SAVED i" once turn i is saved and "LOADED i" once loaded; at
// the stop point it prints "AT point" and waits to be killed.
func TestChildProcess(t *testing.T) {
	path := os.Getenv(envDB)
	if path == "" {
		t.Skip("only run as a child process")
	}
	point := os.Getenv(envPoint)
	hit, _ := strconv.Atoi(os.Getenv(envHit))
	turns, _ := strconv.Atoi(os.Getenv(envTurns))
	first, _ := strconv.Atoi(os.Getenv(envFirst))
	var hits atomic.Int64
	stop := func(p string) {
		if p == point && hits.Add(1) == int64(hit) {
			fmt.Println("AT", p)
			for {
				time.Sleep(time.Hour)
			}
		}
	}
	s, err := Open(path)
	require.NoError(t, err)
	s.hook = stop
	rule := compact.RuleSummarizer(nil)
	c, err := compact.New(compact.WithContextWindow(2500), compact.WithReservedOutput(0),
		compact.WithCustomSummarizer(compact.SummarizerFunc(func(ctx context.Context, req compact.SummarizeRequest) (compact.SummaryRecord, error) {
			stop("summarize")
			return rule.Summarize(ctx, req)
		})))
	require.NoError(t, err)
	m := memory.New(c, memory.WithStore(s), memory.WithSessionID(crashSession))
	ctx := context.Background()
	for i := first; i < first+turns; i++ {
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": words(i, 120)}, map[string]any{"output": words(i+1000, 150)}))
		fmt.Println("SAVED", i)
		_, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		fmt.Println("LOADED", i)
	}
	require.NoError(t, m.Close())
	require.NoError(t, s.Close())
}

// child starts the test binary as a child process.
func child(t *testing.T, path, point string, hit, first, turns int) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envDB+"="+path, envPoint+"="+point, envHit+"="+strconv.Itoa(hit),
		envTurns+"="+strconv.Itoa(turns), envFirst+"="+strconv.Itoa(first))
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	return cmd, bufio.NewScanner(out)
}

// TestKilledMidCompaction kills a process with SIGKILL at several points of
// its work (inside the summarizer, inside the transaction saving a
// compaction, inside the transaction appending a turn, and at an arbitrary
// moment), then reopens the database and checks that every acknowledged
// turn is there, that the state and the summary chain are consistent with
// the history, and that a new process resumes the conversation.
func TestKilledMidCompaction(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	cases := []struct {
		point string
		hit   int
		after int // for point "": kill once this turn is loaded
	}{
		{"summarize", 1, 0},
		{"summarize", 4, 0},
		{"save", 1, 0},
		{"save", 3, 0},
		{"history", 1, 0},
		{"history", 9, 0},
		{"", 0, 6},
		{"", 0, 11},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s#%d", tc.point, tc.hit)
		if tc.point == "" {
			name = fmt.Sprintf("anywhere-after-turn-%d", tc.after)
		}
		t.Run(name, func(t *testing.T) {
			path := t.TempDir() + "/crash.db"
			cmd, lines := child(t, path, tc.point, tc.hit, 0, 40)
			saved, stopped := -1, false
			for lines.Scan() {
				f := strings.Fields(lines.Text())
				if len(f) != 2 {
					continue
				}
				if f[0] == "SAVED" {
					saved, _ = strconv.Atoi(f[1])
				}
				if (f[0] == "AT" && f[1] == tc.point) || (tc.point == "" && f[0] == "LOADED" && f[1] == strconv.Itoa(tc.after)) {
					stopped = true
					require.NoError(t, cmd.Process.Kill()) // SIGKILL
					break
				}
			}
			_ = cmd.Wait()
			require.True(t, stopped, "the child never reached %s", name)
			// A child stopped at a point is blocked there: at most the turn in
			// progress may also be stored. A child killed "anywhere" keeps
			// working until the signal lands, so it may have stored any number
			// of turns after the last one this test read.
			most := saved + 2
			if tc.point == "" {
				most = 40
			}
			checkAfterCrash(t, path, saved+1, most, tc.point == "history")
		})
	}
}

// checkAfterCrash reopens the database of a killed child that acknowledged
// acked turns and can have stored at most most.
func checkAfterCrash(t *testing.T, path string, acked, most int, exact bool) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	var integrity string
	require.NoError(t, s.db.QueryRow("PRAGMA integrity_check").Scan(&integrity))
	require.Equal(t, "ok", integrity)

	msgs, err := s.History(crashSession).Messages(ctx)
	require.NoError(t, err)
	require.Zero(t, len(msgs)%2, "turns are stored whole")
	n := len(msgs) / 2
	require.GreaterOrEqual(t, n, acked, "every acknowledged turn survived")
	require.LessOrEqual(t, n, most)
	if exact {
		require.Equal(t, acked, n, "the turn killed inside its transaction is not there")
	}
	for i := 0; i < n; i++ {
		require.Equal(t, llms.HumanChatMessage{Content: words(i, 120)}, msgs[2*i])
		require.Equal(t, llms.AIChatMessage{Content: words(i+1000, 150)}, msgs[2*i+1])
	}

	st, err := s.Load(ctx, crashSession)
	require.NoError(t, err)
	require.LessOrEqual(t, st.HistoryLen, len(msgs))
	require.LessOrEqual(t, st.UpTo, st.HistoryLen)
	for i := 1; i < len(st.Chain); i++ {
		require.Equal(t, st.Chain[i-1].ID, st.Chain[i].ParentID)
	}
	if len(st.Chain) > 0 {
		require.Equal(t, st.UpTo, st.Chain[len(st.Chain)-1].UpTo)
	}

	// A new process resumes: it adopts the state (after checking it against
	// the history) and goes on compacting.
	c := newCompactor(t)
	m := memory.New(c, memory.WithStore(s), memory.WithSessionID(crashSession), memory.WithReturnMessages(true))
	require.NoError(t, m.Verify(ctx))
	recs, err := m.Records(ctx)
	require.NoError(t, err)
	assert.Equal(t, st.Chain, recs, "the stored chain is adopted, not discarded")
	const more = 12 // about 3,600 tokens: past the 2,500-token window whatever n is
	for i := n; i < n+more; i++ {
		turn(t, m, i)
	}
	require.NoError(t, m.Verify(ctx))
	v, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	view := v["history"].([]llms.ChatMessage)
	require.Equal(t, llms.AIChatMessage{Content: words(n+more-1+1000, 150)}, view[len(view)-1])
	st2, err := s.Load(ctx, crashSession)
	require.NoError(t, err)
	require.Greater(t, len(st2.Chain), len(st.Chain), "compaction went on")
	for i := 1; i < len(st2.Chain); i++ {
		require.Equal(t, st2.Chain[i-1].ID, st2.Chain[i].ParentID)
	}
}

// TestTwoProcesses runs turns of one session from this process and a child
// process at the same time on one database file.
func TestTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ctx := context.Background()
	path := t.TempDir() + "/shared.db"
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	cmd, lines := child(t, path, "", 0, 500, 20)
	// Start once the child is running its turns, so that both write at once.
	for lines.Scan() && lines.Text() != "SAVED 500" {
	}
	drained := make(chan struct{})
	go func() {
		for lines.Scan() {
		}
		close(drained)
	}()
	c := newCompactor(t)
	m := memory.New(c, memory.WithStore(s), memory.WithSessionID(crashSession))
	for i := 0; i < 20; i++ {
		turn(t, m, i)
	}
	<-drained
	require.NoError(t, cmd.Wait(), "the child process failed")
	_, err = m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)

	msgs, err := s.History(crashSession).Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 80)
	seen := map[string]bool{}
	for i := 0; i < 80; i += 2 {
		in := msgs[i].GetContent()
		require.False(t, seen[in])
		seen[in] = true
		var k int
		_, err := fmt.Sscanf(in, "turn %d:", &k)
		require.NoError(t, err)
		require.Equal(t, llms.AIChatMessage{Content: words(k+1000, 150)}, msgs[i+1], "a turn's messages are adjacent")
	}
	st, err := s.Load(ctx, crashSession)
	require.NoError(t, err)
	require.NotEmpty(t, st.Chain)
	for i := 1; i < len(st.Chain); i++ {
		require.Equal(t, st.Chain[i-1].ID, st.Chain[i].ParentID, "no process overwrote the other's compaction")
	}
	require.NoError(t, m.Verify(ctx))
}
