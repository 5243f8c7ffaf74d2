package middleware

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestEveryCompactedOriginalIsHeld: call by call, every input message the
// output does not show verbatim (masked, cut or summarized) has a ref,
// the masked and cut ones show it, and the session holds its original.
func TestEveryCompactedOriginalIsHeld(t *testing.T) {
	for _, window := range []int{2_500, 5_000} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			c := newCompactor(t, window)
			rec := &recorder{}
			m := Wrap(rec, c)
			ctx := WithSession(context.Background(), "conv")
			msgs := run("x", 0, 0)
			compacted := 0
			for r := 0; r < 60; r++ {
				msgs = append(msgs, round("x", r, 400)...)
				_, err := m.GenerateContent(ctx, msgs)
				require.NoError(t, err)
				res, err := c.View(context.Background(), m.Session("conv"), msgs)
				require.NoError(t, err)
				_, orig := m.table.originalsOf("conv")
				require.NotNil(t, orig)
				for i, st := range res.States {
					if st == compact.StateKept {
						assert.Empty(t, res.Refs[i])
						continue
					}
					compacted++
					ref := res.Refs[i]
					require.True(t, store.ValidRef(ref), "input %d: ref %q", i, ref)
					got, err := orig.Original(context.Background(), ref)
					require.NoError(t, err, "call %d input %d (%v)", r, i, st)
					assert.Equal(t, recall.OriginalOf(ref, "", msgs[i]), got)
				}
				for k, o := range res.Origin {
					if o >= 0 && res.States[o] != compact.StateKept {
						assert.Contains(t, fmt.Sprint(res.Messages[k].Parts), compact.RefPrefix+res.Refs[o], "a masked or cut message shows its ref")
					}
				}
			}
			assert.Greater(t, compacted, 0)
		})
	}
}

// TestOriginalsBounded: the originals of a session stay within the byte
// budget; the oldest are evicted first and answer "no longer held".
func TestOriginalsBounded(t *testing.T) {
	o := newOriginals(10_000)
	var refs []string
	for i := range 50 {
		ref := fmt.Sprintf("r%d", i)
		refs = append(refs, ref)
		o.held.Put(store.Original{Ref: ref, Role: llms.ChatMessageTypeTool, Text: fmt.Sprintf("%04d %0900d", i, 0)})
		assert.LessOrEqual(t, o.len()*(900+5+len(ref)+64), 10_000)
	}
	_, err := o.Original(context.Background(), refs[0])
	require.ErrorIs(t, err, store.ErrNotFound)
	assert.Contains(t, err.Error(), "no longer held")
	got, err := o.Original(context.Background(), refs[49])
	require.NoError(t, err)
	assert.Contains(t, got.Text, "0049")
	_, err = o.Original(context.Background(), "never")
	require.ErrorIs(t, err, store.ErrNotFound)
	assert.NotContains(t, err.Error(), "no longer held")
	hits, err := o.Search(context.Background(), "0048 ", 5)
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.Equal(t, "r48", hits[0].Ref)
	o.held.Put(store.Original{Ref: "huge", Text: string(make([]byte, 20_000))})
	_, err = o.Original(context.Background(), "huge")
	assert.True(t, errors.Is(err, store.ErrNotFound), "an original over the whole budget is not kept")
	none := newOriginals(0)
	none.keep([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "x")}, []string{"a"}, func(ref string, m llms.MessageContent) store.Original { return recall.OriginalOf(ref, "", m) })
	assert.Equal(t, 0, none.len())
}
