package pgstore

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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/summary"
)

// Environment of the child processes these tests start by re-running the
// test binary.
const (
	envPrefix = "COMPACT_PGSTORE_CHILD_PREFIX" // the tables' prefix; set only in a child
	envFirst  = "COMPACT_PGSTORE_CHILD_FIRST"  // the first turn
	envStep   = "COMPACT_PGSTORE_CHILD_STEP"   // turns first, first+step, ...
	envTurns  = "COMPACT_PGSTORE_CHILD_TURNS"  // up to this turn (exclusive)
	envBlock  = "COMPACT_PGSTORE_CHILD_BLOCK"  // "1": the summarizer blocks (to be killed mid-compaction)
	envStdin  = "COMPACT_PGSTORE_CHILD_STDIN"  // "1": run the turns whose numbers are read from stdin, one per line
)

const processSession = "process-conversation"

// processCompactor compacts often, with a summarizer that calls block first.
func processCompactor(t testing.TB, calls *atomic.Int32, block func()) *compact.Compactor {
	t.Helper()
	rule := compact.RuleSummarizer(nil)
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(2_000), compact.WithReservedOutput(400),
		compact.WithCustomSummarizer(summary.Func(func(ctx context.Context, req summary.Request) (summary.Record, error) {
			calls.Add(1)
			block()
			return rule.Summarize(ctx, req)
		})))
	require.NoError(t, err)
	return c
}

// TestChildProcess is the body of the child processes; it does nothing in
// a normal test run. It runs its turns on the conversation, printing
// "TURN i" once turn i is saved, and "SUMMARIZING" before a summarizer
// call that, with envBlock, never returns.
func TestChildProcess(t *testing.T) {
	prefix := os.Getenv(envPrefix)
	if prefix == "" {
		t.Skip("only run as a child process")
	}
	first, _ := strconv.Atoi(os.Getenv(envFirst))
	step, _ := strconv.Atoi(os.Getenv(envStep))
	turns, _ := strconv.Atoi(os.Getenv(envTurns))
	block := os.Getenv(envBlock) == "1"
	s, err := New(context.Background(), testDSN(t), WithTablePrefix(prefix))
	require.NoError(t, err)
	defer s.Close()
	var calls atomic.Int32
	c := processCompactor(t, &calls, func() {
		fmt.Println("SUMMARIZING")
		for block {
			time.Sleep(time.Hour)
		}
	})
	mem := memory.New(c, memory.WithStore(s), memory.WithSessionID(processSession),
		memory.WithLeaseTiming(2*time.Second, 20*time.Second))
	if os.Getenv(envStdin) == "1" {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			i, err := strconv.Atoi(in.Text())
			require.NoError(t, err)
			turn(t, mem, question(i), answer(i))
			fmt.Println("TURN", i)
		}
		return
	}
	for i := first; i < turns; i += step {
		turn(t, mem, question(i), answer(i))
		fmt.Println("TURN", i)
	}
}

// startChild runs the test binary as a replica on the tables of prefix.
func startChild(t *testing.T, prefix string, first, step, turns int, block bool) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestChildProcess$", "-test.v")
	b := "0"
	if block {
		b = "1"
	}
	cmd.Env = append(os.Environ(), envPrefix+"="+prefix, envFirst+"="+strconv.Itoa(first), envStep+"="+strconv.Itoa(step),
		envTurns+"="+strconv.Itoa(turns), envBlock+"="+b)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, bufio.NewScanner(out)
}

// TestTwoProcessesInTurns: the test process and a child process serve
// one conversation in turns (the child runs the odd turns when told); they
// summarize as often as one process does, and lose nothing.
func TestTwoProcessesInTurns(t *testing.T) {
	const turns = 30
	var single atomic.Int32
	alone := memory.New(processCompactor(t, &single, func() {}), memory.WithStore(newTestStore(t)), memory.WithSessionID(processSession))
	for i := 0; i < turns; i++ {
		turn(t, alone, question(i), answer(i))
	}

	s := newTestStore(t)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestChildProcess$", "-test.v")
	cmd.Env = append(os.Environ(), envPrefix+"="+s.t.prefix, envStdin+"=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	out := bufio.NewScanner(stdout)
	var calls atomic.Int32
	mem := memory.New(processCompactor(t, &calls, func() {}), memory.WithStore(s), memory.WithSessionID(processSession))
	for i := 0; i < turns; i++ {
		if i%2 == 0 {
			turn(t, mem, question(i), answer(i))
			continue
		}
		_, err := fmt.Fprintln(stdin, i)
		require.NoError(t, err)
		for out.Scan() && out.Text() != fmt.Sprint("TURN ", i) {
		}
	}
	require.NoError(t, stdin.Close())
	require.NoError(t, cmd.Wait())
	msgs, err := s.History(processSession).Messages(context.Background())
	require.NoError(t, err)
	requireTurnsInOrder(t, msgs, turns)
	st, err := s.Load(context.Background(), processSession)
	require.NoError(t, err)
	t.Logf("one process: %d summarizer calls; two processes in turns: %d summaries stored (this process made %d calls)",
		single.Load(), len(st.Chain), calls.Load())
	assert.Equal(t, int(single.Load()), len(st.Chain), "as many summaries as one process makes")
	for k := 0; k < turns; k += 2 {
		assert.Equal(t, question(k), msgs[2*k].GetContent(), "turn %d in its place", k)
	}
}

// TestTwoProcessesAtOnce: the test process and a child process serve one
// conversation at the same time, each its own turns; nothing is lost and
// each reply follows its input.
func TestTwoProcessesAtOnce(t *testing.T) {
	const turns = 24
	s := newTestStore(t)
	cmd, out := startChild(t, s.t.prefix, 1, 2, turns, false)
	var calls atomic.Int32
	mem := memory.New(processCompactor(t, &calls, func() {}), memory.WithStore(s), memory.WithSessionID(processSession))
	for i := 0; i < turns; i += 2 {
		turn(t, mem, question(i), answer(i))
	}
	done := 0
	for out.Scan() {
		if strings.HasPrefix(out.Text(), "TURN ") {
			done++
		}
	}
	require.NoError(t, cmd.Wait())
	assert.Equal(t, turns/2, done, "the child ran its turns")
	msgs, err := s.History(processSession).Messages(context.Background())
	require.NoError(t, err)
	requireTurnsInOrder(t, msgs, turns)
}

// TestKilledMidCompaction: a child process is killed (SIGKILL) while its
// summarizer runs, holding the session's lease. The test process goes on
// with the conversation: the lease expires (2 s), it compacts, and no
// acknowledged turn is lost.
func TestKilledMidCompaction(t *testing.T) {
	s := newTestStore(t)
	cmd, out := startChild(t, s.t.prefix, 0, 1, 1000, true)
	acked := 0
	for out.Scan() {
		line := out.Text()
		if strings.HasPrefix(line, "TURN ") {
			acked++
		}
		if line == "SUMMARIZING" {
			break
		}
	}
	require.Positive(t, acked, "the child saved turns before it compacted")
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	held, err := s.TryLease(context.Background(), processSession, "probe", time.Minute)
	require.NoError(t, err)
	require.False(t, held, "the killed child still holds the lease")

	var calls atomic.Int32
	mem := memory.New(processCompactor(t, &calls, func() {}), memory.WithStore(s), memory.WithSessionID(processSession),
		memory.WithLeaseTiming(2*time.Second, 20*time.Second))
	start := time.Now()
	for i := acked; i < acked+10; i++ {
		turn(t, mem, question(i), answer(i))
	}
	t.Logf("child acknowledged %d turns; the survivor ran 10 more in %v with %d summarizer calls", acked, time.Since(start).Round(time.Millisecond), calls.Load())
	assert.Positive(t, calls.Load(), "the survivor compacted once the lease expired")
	msgs, err := s.History(processSession).Messages(context.Background())
	require.NoError(t, err)
	n := len(msgs) / 2
	require.GreaterOrEqual(t, n, acked+10, "no acknowledged turn lost")
	requireTurnsInOrder(t, msgs, n)
}
