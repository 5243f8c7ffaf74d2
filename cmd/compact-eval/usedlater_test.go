package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// laterCall is one call's detail as testdata/usedlater_calls.py prints it.
type laterCall struct {
	Strategy string   `json:"strategy"`
	Window   string   `json:"window"`
	File     string   `json:"file"`
	Answers  int      `json:"answers"`
	Needed   []string `json:"needed"`
	Kept     []string `json:"kept"`
}

func (c laterCall) key() string {
	return c.Strategy + "/" + c.Window + "/" + c.File + "/" + strconv.Itoa(c.Answers)
}

// normal sorts the token lists (the order of a JSON object's values is not
// part of the measure) and drops calls that need nothing.
func normal(calls []laterCall) map[string]laterCall {
	out := map[string]laterCall{}
	for _, c := range calls {
		if len(c.Needed) == 0 {
			continue
		}
		c.Needed, c.Kept = slices.Clone(c.Needed), slices.Clone(c.Kept)
		slices.Sort(c.Needed)
		slices.Sort(c.Kept)
		if c.Kept == nil {
			c.Kept = []string{}
		}
		out[c.key()] = c
	}
	return out
}

func readLaterCalls(t *testing.T, data []byte) []laterCall {
	t.Helper()
	var out []laterCall
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c laterCall
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		out = append(out, c)
	}
	require.NoError(t, sc.Err())
	return out
}

// goScoreDump scores a dump folder with this package's implementation, as
// usedlater_calls.py does with the script's.
func goScoreDump(t *testing.T, trajDir, dump string) []laterCall {
	t.Helper()
	var out []laterCall
	strategies, err := os.ReadDir(dump)
	require.NoError(t, err)
	for _, s := range strategies {
		windows, err := os.ReadDir(filepath.Join(dump, s.Name()))
		require.NoError(t, err)
		for _, w := range windows {
			files, err := os.ReadDir(filepath.Join(dump, s.Name(), w.Name()))
			require.NoError(t, err)
			for _, f := range files {
				msgs, err := trajectory.ReadFile(filepath.Join(trajDir, f.Name()))
				require.NoError(t, err)
				needs := usedLaterNeeds(msgs)
				data, err := os.ReadFile(filepath.Join(dump, s.Name(), w.Name(), f.Name()))
				require.NoError(t, err)
				sc := bufio.NewScanner(bytes.NewReader(data))
				sc.Buffer(nil, 1<<26)
				for sc.Scan() {
					var l dumpLine
					require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
					need := needs[l.Answers]
					sent := sentText(l.Messages)
					c := laterCall{Strategy: s.Name(), Window: w.Name(), File: f.Name(), Answers: l.Answers, Needed: need.tokens}
					for _, tok := range need.tokens {
						if strings.Contains(sent, tok) {
							c.Kept = append(c.Kept, tok)
						}
					}
					kept, _ := keptLater(need, sent)
					require.Len(t, c.Kept, kept)
					out = append(out, c)
				}
				require.NoError(t, sc.Err())
			}
		}
	}
	return out
}

// TestUsedLaterAgreesWithExpected checks the Go measure against the
// script's per-call output on the committed dump (usedlater_expected.jsonl,
// written by testdata/usedlater_calls.py): runs without python.
func TestUsedLaterAgreesWithExpected(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "usedlater_expected.jsonl"))
	require.NoError(t, err)
	exp := normal(readLaterCalls(t, want))
	require.NotEmpty(t, exp, "the fixture needs calls that need tokens")
	got := normal(goScoreDump(t, filepath.Join("testdata", "traj"), filepath.Join("testdata", "dump")))
	assert.Equal(t, exp, got)
	kept, needed := 0, 0
	for _, c := range exp {
		kept, needed = kept+len(c.Kept), needed+len(c.Needed)
	}
	assert.Less(t, kept, needed, "the fixture should miss some tokens, or it cannot tell keeping from missing")
	assert.Positive(t, kept)
}

func python(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the script side of the used-later comparison is skipped (TestUsedLaterAgreesWithExpected still checks the Go side against the committed output)")
	}
	return p
}

// TestUsedLaterScriptOnFixture checks that the committed expected output is
// what the script prints on the committed dump.
func TestUsedLaterScriptOnFixture(t *testing.T) {
	py := python(t)
	out, err := exec.Command(py, filepath.Join("testdata", "usedlater_calls.py"), filepath.Join("testdata", "traj"), filepath.Join("testdata", "dump")).Output()
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("testdata", "usedlater_expected.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, normal(readLaterCalls(t, want)), normal(readLaterCalls(t, out)))
}

// TestUsedLaterReplayAgreesWithScript replays the fixture trajectories with
// -dump and checks the replay's per-call figures and totals against the
// script's, token for token, and the dump's layout.
func TestUsedLaterReplayAgreesWithScript(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "dump")
	traj := filepath.Join("testdata", "traj")
	cfg, err := parseFlags([]string{"-dir", traj, "-windows", "4000,8000", "-strategies", "none,oldest-first,ours-rule,codex-cli",
		"-out", filepath.Join(dir, "out"), "-dump", dump, "-quiet"}, &bytes.Buffer{})
	require.NoError(t, err)
	ev, err := evaluate(context.Background(), cfg, nil)
	require.NoError(t, err)
	for _, res := range ev.results {
		_, err := os.Stat(filepath.Join(dump, res.strategy, strconv.Itoa(res.window), res.file))
		require.NoError(t, err, "dump layout DIR/<strategy>/<window>/<file>")
	}
	got := goScoreDump(t, traj, dump)
	// The replay's own per-call counts equal the Go scoring of its dump.
	perCall := map[string][2]int{}
	for _, res := range ev.results {
		for _, c := range res.calls {
			perCall[res.strategy+"/"+strconv.Itoa(res.window)+"/"+res.file+"/"+strconv.Itoa(c.msgIndex)] = [2]int{c.needed, c.keptLater}
		}
	}
	for _, c := range got {
		assert.Equal(t, [2]int{len(c.Needed), len(c.Kept)}, perCall[c.key()], c.key())
	}
	py := python(t)
	out, err := exec.Command(py, filepath.Join("testdata", "usedlater_calls.py"), traj, dump).Output()
	require.NoError(t, err)
	assert.Equal(t, normal(readLaterCalls(t, out)), normal(got))
	// The script's own totals equal the rows'.
	out, err = exec.Command(py, filepath.Join("testdata", "usedlater.py"), traj, dump).Output()
	require.NoError(t, err)
	re := regexp.MustCompile(`strategy=(\S+) window=(\d+) runs=\d+ needed=(\d+) kept=(\d+)`)
	lines := re.FindAllStringSubmatch(string(out), -1)
	require.Len(t, lines, len(ev.rows))
	for _, m := range lines {
		w, _ := strconv.Atoi(m[2])
		r, ok := findRow(ev.rows, w, m[1])
		require.True(t, ok, m[0])
		assert.Equal(t, m[3], strconv.FormatInt(r.laterNeeded, 10), m[0])
		assert.Equal(t, m[4], strconv.FormatInt(r.laterKept, 10), m[0])
	}
}

// TestSalient covers the token rule's edges.
func TestSalient(t *testing.T) {
	for tok, want := range map[string]bool{"foo_bar": true, "a.go": true, "https://x.y": false, "plain": false,
		"camelCase": true, "abc12": true, "ABCDE": false} {
		assert.Equal(t, want, salient(tok), tok)
	}
}
