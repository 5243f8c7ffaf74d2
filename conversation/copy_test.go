package conversation_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// summarizer is an Adapter whose every step makes a new summary record,
// with an audit; fits decides whether it takes a stored state.
type summarizer struct {
	steps int
	fits  bool
	taken []int64
}

func (s *summarizer) Take(_ context.Context, st store.State) (bool, error) {
	s.taken = append(s.taken, st.Version)
	return s.fits, nil
}

func (s *summarizer) Step(context.Context, int64, compact.SummarizeGate) (conversation.Step, error) {
	s.steps++
	id := "s" + string(rune('0'+s.steps))
	res := &compact.Result{Compacted: true, Summary: &compact.SummaryRecord{ID: id, OriginalMessageIDs: []string{"w1"}},
		Event: &compact.Event{SummaryID: id}}
	return conversation.Step{Session: compact.NewSession("c"), Result: res, Changed: true,
		Audit:  conversation.Audit{OriginalMessageIDs: []string{"h7"}, Positions: []int{7}, SHA256: "abc", UpTo: 9},
		Window: conversation.Window{UpTo: 9, Kept: []int{1}, HistoryLen: 12}}, nil
}

// TestCopyRecordShape: the copy writes each new summary as the chain's
// next record, with the adapter's audit, and stores only the new records.
func TestCopyRecordShape(t *testing.T) {
	ctx := context.Background()
	s := store.NewMemory()
	r := conversation.NewReplica(s)
	c, a := conversation.NewCopy("c"), &summarizer{fits: true}
	require.NoError(t, r.Turn(ctx, c, a))
	require.NoError(t, r.Turn(ctx, c, a))
	st, err := s.Load(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, int64(2), st.Version)
	require.Len(t, st.Chain, 2)
	rec := st.Chain[1]
	assert.Equal(t, "s2", rec.ID)
	assert.Equal(t, []string{"h7"}, rec.OriginalMessageIDs, "the audit's ids replace the window's")
	assert.Equal(t, []int{7}, rec.Positions)
	assert.Equal(t, "abc", rec.SHA256)
	assert.Equal(t, 9, rec.UpTo)
	assert.Equal(t, 9, st.UpTo)
	assert.Equal(t, []int{1}, st.Kept)
	assert.Equal(t, 12, st.HistoryLen)
	assert.NotEmpty(t, st.Engine)
	assert.Equal(t, 2, c.Len())
	recs := c.Records()
	recs[0].Positions[0] = 99
	assert.Equal(t, 7, c.Records()[0].Positions[0], "Records is a copy")
}

// TestCopyRevertRule: a step that was not stored is dropped: the copy is
// its revert point again, and the adapter takes it.
func TestCopyRevertRule(t *testing.T) {
	ctx := context.Background()
	s := &flaky{Memory: store.NewMemory()}
	r := conversation.NewReplica(s, conversation.WithBackoff(fast))
	c, a := conversation.NewCopy("c"), &summarizer{fits: true}
	require.NoError(t, r.Turn(ctx, c, a))
	s.fails.Store(10)
	require.Error(t, r.Turn(ctx, c, a))
	assert.Equal(t, 1, c.Len(), "the records never stored are dropped")
	assert.False(t, c.Changed())
	assert.Equal(t, []int64{0, 1, 1, 1, 1}, a.taken, "the load, then the revert point after each failure")
	s.fails.Store(0)
	require.NoError(t, r.Turn(ctx, c, a))
	st, err := s.Load(ctx, "c")
	require.NoError(t, err)
	require.Len(t, st.Chain, 2)
	assert.Equal(t, int64(2), st.Version)
}

// TestCopyStateThatDoesNotFit: a stored state the adapter refuses leaves
// the copy at its version with an empty chain, and the next save replaces
// the whole stored chain.
func TestCopyStateThatDoesNotFit(t *testing.T) {
	ctx := context.Background()
	s := store.NewMemory()
	r := conversation.NewReplica(s)
	require.NoError(t, r.Turn(ctx, conversation.NewCopy("c"), &summarizer{fits: true}))
	require.NoError(t, r.Turn(ctx, conversation.NewCopy("c"), &summarizer{fits: true, steps: 1}))
	c := conversation.NewCopy("c")
	require.NoError(t, r.Sync(ctx, c, &summarizer{fits: false}))
	assert.Zero(t, c.Len())
	assert.True(t, c.Changed(), "the fresh state is to be stored")
	require.NoError(t, r.Turn(ctx, c, &summarizer{fits: false, steps: 5}))
	st, err := s.Load(ctx, "c")
	require.NoError(t, err)
	require.Len(t, st.Chain, 1, "the whole chain replaced")
	assert.Equal(t, "s6", st.Chain[0].ID)
}

// TestCopyReset: a reset empties the chain and keeps the version; a step
// running meanwhile is not committed (a conflict, stepped again).
func TestCopyReset(t *testing.T) {
	ctx := context.Background()
	s := store.NewMemory()
	r := conversation.NewReplica(s)
	c, a := conversation.NewCopy("c"), &summarizer{fits: true}
	require.NoError(t, r.Turn(ctx, c, a))
	reset := &resetting{summarizer: a, c: c}
	require.NoError(t, r.Turn(ctx, c, reset))
	st, err := s.Load(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, int64(2), st.Version)
	require.Len(t, st.Chain, 1, "stored from the reset: the old chain replaced")
	assert.Equal(t, 1, reset.resets)
}

// resetting resets the copy during its first step.
type resetting struct {
	*summarizer
	c      *conversation.Copy
	resets int
}

func (r *resetting) Step(ctx context.Context, v int64, g compact.SummarizeGate) (conversation.Step, error) {
	if r.resets == 0 {
		r.resets++
		r.c.Reset()
	}
	return r.summarizer.Step(ctx, v, g)
}

// TestNewSummary: only a compaction that made a new summary adds a record.
func TestNewSummary(t *testing.T) {
	sum := &compact.SummaryRecord{ID: "a"}
	assert.Nil(t, conversation.NewSummary(nil))
	assert.Nil(t, conversation.NewSummary(&compact.Result{Summary: sum, Event: &compact.Event{SummaryID: "a"}}), "not compacted")
	assert.Nil(t, conversation.NewSummary(&compact.Result{Compacted: true, Summary: sum, Event: &compact.Event{}}), "kept the summary in force")
	assert.Equal(t, sum, conversation.NewSummary(&compact.Result{Compacted: true, Summary: sum, Event: &compact.Event{SummaryID: "a"}}))
}
