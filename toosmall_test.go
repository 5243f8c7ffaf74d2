package compact

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestBudgetTooSmallNamesWhatDoesNotFit checks the error of issue 24,
// item 8: with 1,000 small tool calls before the latest user message, the
// error names the tool round, not the tiny system prompt and user
// message, and its figures add up to the tokens needed.
func TestBudgetTooSmallNamesWhatDoesNotFit(t *testing.T) {
	msgs := manyCalls(1000)
	msgs = append([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are an agent.")}, msgs...)
	c, err := New(WithContextWindow(4_000), WithReservedOutput(400))
	require.NoError(t, err)
	_, err = c.Compact(context.Background(), NewSession("small"), msgs)
	require.Error(t, err)
	require.True(t, errors.Is(err, ErrBudgetTooSmall), err)
	text := err.Error()
	t.Log(text)
	require.Contains(t, text, "1000 tool calls")
	m := regexp.MustCompile(`(\d+) tokens needed, budget (\d+)`).FindStringSubmatch(text)
	require.NotNil(t, m, text)
	needed, _ := strconv.Atoi(m[1])
	sum := 0
	for _, p := range regexp.MustCompile(`: (\d+)(?: \+|\))`).FindAllStringSubmatch(text[strings.Index(text, "("):], -1) {
		n, _ := strconv.Atoi(p[1])
		sum += n
	}
	require.Equal(t, needed, sum, "the parts add up to the tokens needed: %s", text)
}
