package reliability

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// crashFlag selects the long crash run (see doc.go).
var crashFlag = flag.Bool("crash", false, "run the long crash test: 200 random kill points (also env COMPACT_CRASH_POINTS=n)")

// Environment of the child process TestCrashRandomKill starts.
const (
	envCrashDB    = "COMPACT_RELIABILITY_CRASH_DB"
	envCrashSeed  = "COMPACT_RELIABILITY_CRASH_SEED"
	envCrashAsync = "COMPACT_RELIABILITY_CRASH_ASYNC"
)

const (
	crashSession = "crash"
	crashTurns   = 400
)

// crashCompactor is the compactor of the crash child and of the checks: a
// small window, so that compactions are frequent, and a summarizer that
// takes a few milliseconds, so that kills often land inside one.
func crashCompactor() (*compact.Compactor, error) {
	rule := compact.RuleSummarizer(nil)
	return compact.New(compact.WithContextWindow(3_000),
		compact.WithCustomSummarizer(compact.SummarizerFunc(func(ctx context.Context, req compact.SummarizeRequest) (compact.SummaryRecord, error) {
			time.Sleep(3 * time.Millisecond)
			return rule.Summarize(ctx, req)
		})))
}

// crashTurnsFor returns the turns of the crash run with the given seed.
func crashTurnsFor(t testing.TB, seed int64) []memTurn {
	names, convs := loadTrajectories(t)
	return memTurns(rand.New(rand.NewSource(seed)), crashTurns+20, toolSamples(convs, names), userTexts(convs, names))
}

// TestCrashChild is the body of the child process of TestCrashRandomKill;
// it does nothing in a normal run. It saves and loads turns on the SQLite
// database named by the environment, printing "SAVE i" before SaveContext,
// "SAVED i" once it returned, "LOAD i" before LoadMemoryVariables (which
// compacts) and "LOADED i" after, until it is killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(envCrashDB)
	if path == "" {
		t.Skip("only run as the child process of TestCrashRandomKill")
	}
	seed, _ := strconv.ParseInt(os.Getenv(envCrashSeed), 10, 64)
	st, err := sqlitestore.Open(path)
	require.NoError(t, err)
	c, err := crashCompactor()
	require.NoError(t, err)
	opts := []memory.Option{memory.WithStore(st), memory.WithSessionID(crashSession)}
	if os.Getenv(envCrashAsync) == "1" {
		opts = append(opts, memory.WithAsync(2))
	}
	m := memory.New(c, opts...)
	ctx := context.Background()
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	for i, tr := range crashTurnsFor(t, seed)[:crashTurns] {
		say("SAVE %d", i)
		require.NoError(t, tr.save(ctx, m))
		say("SAVED %d", i)
		say("LOAD %d", i)
		_, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		say("LOADED %d", i)
	}
	say("DONE")
}

// crashPoints returns how many kills TestCrashRandomKill makes: 6 by
// default (2 with -short), 200 with -crash, COMPACT_CRASH_POINTS overrides.
func crashPoints() int {
	n := 6
	if testing.Short() {
		n = 2
	}
	if *crashFlag {
		n = 200
	}
	return envInt("COMPACT_CRASH_POINTS", n)
}

// TestCrashRandomKill kills a process running SQLite-backed compaction with
// SIGKILL at random moments (a random delay after its first turn), in
// synchronous mode and in async mode (where background compactions run
// beside the turns), then reopens the database and checks: the history
// holds every acknowledged turn, whole and in order, and at most the one
// turn in flight besides (nothing lost, nothing half-written); the summary
// chain verifies against the history and links parent to child; a new
// Memory resumes, loads a context within the budget and goes on for more
// turns. It complements store/sqlitestore's TestKilledMidCompaction,
// which stops the child at fixed points; here the points are random and
// the turns carry tool rounds.
func TestCrashRandomKill(t *testing.T) {
	points := crashPoints()
	phases := map[string]int{}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for p := 0; p < points; p++ {
		seed := int64(p)
		async := p%2 == 1
		delay := time.Duration(20+rng.Intn(1500)) * time.Millisecond
		t.Run(fmt.Sprintf("point-%d-async-%v", p, async), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crash.db")
			phase, acked := crashOnce(t, path, seed, async, delay)
			phases[phase]++
			t.Logf("killed after %s during %q with %d turns acknowledged", delay, phase, acked)
			checkAfterCrash(t, path, seed, acked)
		})
	}
	var keys []string
	for k, v := range phases {
		keys = append(keys, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(keys)
	t.Logf("crash points tried: %d (phase at the kill: %s)", points, strings.Join(keys, " "))
}

// crashOnce runs the child on path and kills it at a point drawn from
// delay: after turn 1 + delay(ms) mod (crashTurns-40) is acknowledged, plus
// delay mod 3 ms, so that the kill lands while the child runs however fast
// the machine is (a kill timed in wall time alone raced a fast child to its
// end). It returns what the child was doing when killed and how many turns
// it had acknowledged.
func crashOnce(t *testing.T, path string, seed int64, async bool, delay time.Duration) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	a := "0"
	if async {
		a = "1"
	}
	cmd.Env = append(os.Environ(), envCrashDB+"="+path, envCrashSeed+"="+strconv.FormatInt(seed, 10), envCrashAsync+"="+a)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	acked, phase := 0, "starting"
	killTurn := 1 + int(delay/time.Millisecond)%(crashTurns-40)
	jitter := delay % (3 * time.Millisecond)
	var timer <-chan time.Time
	killed := false
	for !killed {
		select {
		case l, ok := <-lines:
			if !ok {
				_ = cmd.Wait()
				t.Fatalf("the child ended before it was killed (last phase %q): %s", phase, stderr.String())
			}
			f := strings.Fields(l)
			if len(f) == 2 {
				n, _ := strconv.Atoi(f[1])
				switch f[0] {
				case "SAVE":
					phase = "saving a turn"
				case "SAVED":
					acked = n + 1
					phase = "between save and load"
					if timer == nil && acked >= killTurn {
						timer = time.After(jitter)
					}
				case "LOAD":
					phase = "loading (compacting)"
				case "LOADED":
					phase = "between turns"
				}
			}
		case <-timer:
			require.NoError(t, cmd.Process.Kill()) // SIGKILL
			killed = true
		}
	}
	_ = cmd.Wait()
	for l := range lines { // what the child printed before it died
		if f := strings.Fields(l); len(f) == 2 && f[0] == "SAVED" {
			n, _ := strconv.Atoi(f[1])
			acked = n + 1
		}
	}
	if async {
		phase += " (async)"
	}
	return phase, acked
}

// checkAfterCrash reopens the database of a killed child that acknowledged
// acked turns and checks it, then resumes the conversation.
func checkAfterCrash(t *testing.T, path string, seed int64, acked int) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlitestore.Open(path)
	require.NoError(t, err)
	defer st.Close()
	hist, err := st.History(crashSession).Messages(ctx)
	require.NoError(t, err)
	turns := crashTurnsFor(t, seed)
	got := historyDigest(hist)
	n := -1
	for k := acked; k <= acked+1 && k <= len(turns); k++ {
		if want := expectedHistory(turns[:k]); len(want) == len(got) {
			n = k
		}
	}
	require.GreaterOrEqual(t, n, acked, "the history holds %d messages; %d turns were acknowledged: a turn is lost or half-written", len(got), acked)
	want := expectedHistory(turns[:n])
	for i := range want {
		require.Equal(t, want[i], got[i], "history message %d", i)
	}

	c, err := crashCompactor()
	require.NoError(t, err)
	m := memory.New(c, memory.WithStore(st), memory.WithSessionID(crashSession), memory.WithReturnMessages(true))
	require.NoError(t, m.Verify(ctx), "the chain does not verify against the history")
	require.NoError(t, checkChain(ctx, m, hist))
	v, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	msgs, _ := v["history"].([]llms.ChatMessage)
	require.NoError(t, checkMemory(ctx, c, m, turns[:n], msgs))
	for i := n; i < n+5; i++ {
		require.NoError(t, turns[i].save(ctx, m))
		v, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		msgs, _ := v["history"].([]llms.ChatMessage)
		require.NoError(t, checkMemory(ctx, c, m, turns[:i+1], msgs), "after resuming, turn %d", i)
	}
	require.NoError(t, m.Close())
}
