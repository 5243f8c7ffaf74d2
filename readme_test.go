package compact_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeFigure matches the figures a README states as measured: a
// percentage, a dollar amount, a duration in ms, a ratio like "0.54x".
var readmeFigure = regexp.MustCompile(`\$[0-9][0-9,]*(\.[0-9]+)?|[0-9][0-9,]*(\.[0-9]+)?(%| ms\b|x\b)`)

// TestReadmeFiguresFromEval: the README reads in five minutes (at most 300
// lines, Go code within its first 40) and every figure it states is one
// that docs/eval holds, so that a regenerated evaluation that changes a
// figure fails here until the README follows it.
func TestReadmeFiguresFromEval(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	lines := strings.Split(string(readme), "\n")
	require.LessOrEqual(t, len(lines), 300, "README.md lines")
	first := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "```go") {
			first = i + 1
			break
		}
	}
	require.Positive(t, first, "README.md has a Go snippet")
	require.LessOrEqual(t, first, 40, "README.md's first Go snippet within its first 40 lines")

	var eval strings.Builder
	files, err := filepath.Glob(filepath.Join("docs", "eval", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "docs/eval")
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		eval.Write(b)
		eval.WriteByte('\n')
	}
	held := eval.String()
	figures := readmeFigure.FindAllString(string(readme), -1)
	require.NotEmpty(t, figures, "the README states some measured figure")
	for _, f := range figures {
		require.True(t, containsFigure(held, f), "README figure %q is in none of docs/eval/*.md", f)
	}

	for _, gone := range []string{"memory.NewChatHistory", "the specification"} {
		require.NotContains(t, string(readme), gone)
	}
	for _, m := range regexp.MustCompile(`\]\(((docs|examples)/[^)#]*)\)`).FindAllStringSubmatch(string(readme), -1) {
		_, err := os.Stat(m[1])
		require.NoError(t, err, "README links %s", m[1])
	}
}

// containsFigure reports whether text holds figure as a figure: not as the
// tail of a longer number ("0.0%" is not in "90.0%").
func containsFigure(text, figure string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], figure)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !strings.ContainsRune("0123456789.,", rune(text[at-1])) {
			return true
		}
		i = at + 1
	}
}

// TestContainsFigure: a figure is found as itself, never as the tail of a
// longer number, so that the README check can fail.
func TestContainsFigure(t *testing.T) {
	require.True(t, containsFigure("kept 90.0% of", "90.0%"))
	require.False(t, containsFigure("kept 90.0% of", "0.0%"))
	require.False(t, containsFigure("$16.85", "$6.85") && containsFigure("16.85%", "6.85%"))
	require.False(t, containsFigure("kept 90.0% of", "91.0%"))
	require.Equal(t, []string{"90.0%", "$6.85", "1.8 ms"}, readmeFigure.FindAllString("90.0% and $6.85 in 1.8 ms, 4,096 tokens", -1))
}
