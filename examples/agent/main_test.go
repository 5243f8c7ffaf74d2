package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// project writes a small Go module with several files to explore.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write("go.mod", "module example.com/demo\n\ngo 1.22\n")
	for i := 0; i < 6; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package demo\n\n// Thing%d is a thing.\ntype Thing%d struct{ n int }\n\n// NewThing%d returns a thing.\nfunc NewThing%d() *Thing%d { return &Thing%d{} }\n", i, i, i, i, i, i)
		for k := 0; k < 60; k++ {
			fmt.Fprintf(&b, "\n// Method%d of Thing%d adds %d.\nfunc (t *Thing%d) Method%d() int { return t.n + %d }\n", k, i, k, i, k, k)
		}
		write(fmt.Sprintf("thing%d.go", i), b.String())
	}
	write("README.md", "# demo\n")
	return dir
}

func TestRunOffline(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go vet needs the go command")
	}
	t.Setenv("OPENAI_API_KEY", "")
	dir := project(t)
	var out, errb bytes.Buffer
	// At 11,000 tokens, with the specification's shallow policy, the first
	// compaction only masks, so the model is sent condensed outputs with
	// their refs (at smaller windows, or with the default deep policy, the
	// compaction summarizes them).
	code := run(context.Background(), []string{"-dir", dir, "-window", "11000", "-files", "6", "-trigger", "0.8", "-reset", "0.7"}, &out, &errb)
	require.Equal(t, 0, code, "stderr: %s\nstdout: %s", errb.String(), out.String())
	s := out.String()
	assert.Contains(t, s, "agent: scripted (offline, deterministic)")
	assert.Contains(t, s, "· list_dir . → 8 entries")
	assert.Contains(t, s, `· grep "^func New" → 6 matches`)
	assert.Regexp(t, `read 6 files \(thing0.go, .*thing5.go\)`, s)
	assert.Contains(t, s, "ran go vet (go vet .: no issues found)")
	assert.Regexp(t, `#1 at call \d+: (trigger|emergency), mode \w+, depth \d`, s)
	assert.Contains(t, s, "Final summary:")

	// The recall round trip: the scripted model read a ref out of a
	// condensed output it was sent, called recall with it, and the
	// recalled text is the tool output the agent had seen.
	m := regexp.MustCompile(`(?m)^  marker sent at call \d+: \[✓ (read_file|list_dir|grep)\b.* ref:([a-z2-7]{8})\n  ref in the marker:     ref:([a-z2-7]{8})\n  recall tool input:     ref:([a-z2-7]{8})\n`).FindStringSubmatch(s)
	require.NotNil(t, m, "the Recall section shows the marker, its ref and the tool input:\n%s", s)
	assert.Equal(t, m[2], m[3])
	assert.Equal(t, m[2], m[4])
	assert.Regexp(t, `(?m)^  recall answered with \d+ lines; the first \d+:\n    \| ref:`+m[2]+` lines 1-\d+ of \d+ \(tool.*\):\n    \| 1: `, s)
	assert.Regexp(t, `(?m)^  recalled text matches the original: yes \(the \w+ .*output the agent had seen, [0-9,]+ bytes, \d+ pages?\)$`, s)
	assert.Contains(t, s, "· recall ref:"+m[2]+" → ")
	assert.Contains(t, s, "I recalled one condensed output by its ref (ref:"+m[2]+")")
	// Eleven calls: list, grep, six reads, one recall, go vet, the answer.
	assert.Regexp(t, `Totals: 11 model calls in [0-9.]+s; the agent built [0-9,]+ tokens in all, [0-9,]+ were sent \(\d+% saved\); [1-9]\d* compactions`, s)
	// Every call was sent within the budget.
	rows := regexp.MustCompile(`(?m)^\s+(\d+)\s+([0-9,]+)/(\d+)\s+([0-9,]+)/(\d+)\s+([0-9,]+)`).FindAllStringSubmatch(s, -1)
	require.Len(t, rows, 11)
	for _, r := range rows {
		sent, budget := atoi(t, r[4]), atoi(t, r[6])
		assert.LessOrEqual(t, sent, budget, "call %s", r[1])
	}
}

// TestRunLLMSummarizer: offline, -llm-summarizer makes the scripted model
// write the summaries, through the engine's LLM summarizer.
// TestRunOfflineRecallBySearch: with the default (deep) policy the
// condensed outputs are summarized away, and the scripted model searches
// the compacted originals for a file the summary lists as read.
func TestRunOfflineRecallBySearch(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := project(t)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-dir", dir, "-files", "6", "-quiet"}, &out, &errb)
	require.Equal(t, 0, code, "stderr: %s\nstdout: %s", errb.String(), out.String())
	s := out.String()
	m := regexp.MustCompile(`(?m)^  recall tool input:     (\S+\.go)\n  recall answered with \d+ lines; the first \d+:\n    \| search for "(\S+)": [1-9]\d* of \d+ matching originals`).FindStringSubmatch(s)
	require.NotNil(t, m, "the Recall section shows a search:\n%s", s)
	assert.Equal(t, m[1], m[2])
	assert.Contains(t, s, "searched the summarized originals for "+m[1])
}

func TestRunLLMSummarizer(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go vet needs the go command")
	}
	t.Setenv("OPENAI_API_KEY", "")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-dir", project(t), "-window", "6000", "-files", "6", "-quiet", "-llm-summarizer"}, &out, &errb)
	require.Equal(t, 0, code, "stderr: %s\nstdout: %s", errb.String(), out.String())
	s := out.String()
	assert.Regexp(t, `#\d+ at call \d+: (trigger|emergency), mode llm, depth \d`, s)
	assert.Regexp(t, `Final summary:\n  depth \d+, mode llm, covers \d+ messages`, s)
	assert.NotContains(t, s, "mode fallback", "every summary the scripted model wrote was valid")
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	_, err := fmt.Sscan(strings.ReplaceAll(s, ",", ""), &n)
	require.NoError(t, err)
	return n
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{name: "help", args: []string{"-h"}, code: 0, want: "Usage: go run ./examples/agent"},
		{name: "window too small", args: []string{"-window", "10"}, code: 2, want: "-window 10"},
		{name: "unknown flag", args: []string{"-nope"}, code: 2, want: "flag provided but not defined"},
		{name: "stray argument", args: []string{"extra"}, code: 2, want: "unexpected arguments"},
		{name: "trigger without reset", args: []string{"-trigger", "0.8"}, code: 2, want: "give both or neither"},
		{name: "ratios out of range", args: []string{"-offline", "-trigger", "0.5", "-reset", "0.9"}, code: 1, want: "WithTrigger"},
		{name: "missing dir", args: []string{"-offline", "-dir", "/does/not/exist"}, code: 1, want: "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errb)
			assert.Equal(t, tt.code, code)
			assert.Contains(t, errb.String(), tt.want)
		})
	}
}

func TestHelpDocumentsEveryFlag(t *testing.T) {
	var errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"-h"}, &bytes.Buffer{}, &errb))
	for _, f := range []string{"-dir", "-window", "-model", "-ollama", "-offline", "-files", "-max-iterations", "-task", "-llm-summarizer", "-quiet"} {
		assert.Contains(t, errb.String(), "  "+f, "flag %s", f)
	}
	assert.Contains(t, errb.String(), "OPENAI_API_KEY")
}

func TestRunOtel(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go vet needs the go command")
	}
	t.Setenv("OPENAI_API_KEY", "")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-dir", project(t), "-window", "6000", "-files", "6", "-quiet", "-llm-summarizer", "-otel"}, &out, &errb)
	require.Equal(t, 0, code, "stderr: %s\nstdout: %s", errb.String(), out.String())
	s := out.String()
	_, tel, ok := strings.Cut(s, "\nOpenTelemetry (otelcompact on the stdout exporters")
	require.True(t, ok, "the telemetry comes after the report")
	for _, want := range []string{`"Name": "agent run"`, `"Name": "compact.compaction"`, `"Name": "chat `,
		`"Key": "gen_ai.usage.input_tokens"`, `"Name": "compact.compactions"`, `"Name": "gen_ai.client.token.usage"`} {
		assert.Contains(t, tel, want)
	}
}
