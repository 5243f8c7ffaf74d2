package compact

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionStatsDuringCompaction: Stats returns the figures of the last
// finished call while a compaction waits for its summarizer, then those of
// that compaction once it returns; Reset and UnmarshalJSON publish theirs.
func TestSessionStatsDuringCompaction(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		close(started)
		<-release
		return SummaryRecord{Summary: "Earlier work."}, nil
	})
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum))
	require.NoError(t, err)
	s := NewSession("stats")
	assert.Equal(t, Stats{}, s.Stats())
	short, long := conversation(2, 50), conversation(30, 300)
	_, err = c.Compact(context.Background(), s, short) // nothing to compact
	require.NoError(t, err)
	before := s.Stats()
	assert.Equal(t, len(short), before.MessagesTotal)

	done := make(chan error, 1)
	go func() {
		_, err := c.Compact(context.Background(), s, long)
		done <- err
	}()
	<-started
	assert.Equal(t, before, s.Stats(), "the figures of the last finished call, without waiting")
	close(release)
	require.NoError(t, <-done)
	after := s.Stats()
	assert.Equal(t, 1, after.Compactions)
	assert.Equal(t, len(long), after.MessagesTotal)

	b, err := json.Marshal(s)
	require.NoError(t, err)
	s2 := &Session{}
	require.NoError(t, json.Unmarshal(b, s2))
	assert.Equal(t, after, s2.Stats())
	s.Reset()
	assert.Equal(t, Stats{}, s.Stats())
}
