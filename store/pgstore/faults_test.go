package pgstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentcompact/compact/internal/pgtest"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// faultStore opens a store through a fault proxy: the tests arm a drop at
// a chosen statement, so each failure happens at the same point on every
// run.
func faultStore(t *testing.T) (*Store, *pgtest.Proxy) {
	t.Helper()
	p, dsn := pgtest.NewProxy(t, testDSN(t))
	return newTestStoreDSN(t, dsn), p
}

// faultPoint is one statement of an operation where a connection is
// dropped.
type faultPoint struct {
	op    string // the operation, for the test name
	match string // a fragment of the statement's SQL
}

// The statements of each operation (the SQL fragments are the store's own).
var (
	appendPoints  = []faultPoint{{"append", "SET length = t.length + $3"}}
	replacePoints = []faultPoint{{"replace", "SET epoch = t.epoch + 1"}}
	savePoints    = []faultPoint{
		{"save-begin", "begin"}, {"save-check", "FOR UPDATE"},
		{"save-write", "DO UPDATE SET version = excluded.version"}, {"save-commit", "commit"},
	}
)

var faults = []struct {
	name string
	f    pgtest.Fault
}{{"drop-before-send", pgtest.DropBeforeSend}, {"drop-after-reply", pgtest.DropAfterReply}}

// TestFaultAppend: an append whose connection drops before the server
// runs it, or after it committed, returns nil and is stored exactly once;
// each such failure was checked by batch id.
func TestFaultAppend(t *testing.T) {
	for _, pt := range appendPoints {
		for _, f := range faults {
			t.Run(pt.op+"/"+f.name, func(t *testing.T) {
				s, p := faultStore(t)
				ctx := context.Background()
				h := s.History("conv")
				require.NoError(t, h.AddMessage(ctx, llms.HumanChatMessage{Content: "first"}))
				p.Arm(pgtest.Rule{Match: pt.match, Nth: 1, Fault: f.f})
				require.NoError(t, h.AddMessages(ctx, []llms.ChatMessage{
					llms.HumanChatMessage{Content: "user"}, llms.AIChatMessage{Content: "reply"},
				}))
				require.Equal(t, 1, p.Fired(), "the fault was injected")
				assert.Equal(t, int64(1), s.checked.Load(), "the ambiguous failure was checked by batch id")
				msgs, err := h.Messages(ctx)
				require.NoError(t, err)
				assert.Equal(t, []string{"first", "user", "reply"}, contents(msgs), "stored once, in order")
			})
		}
	}
}

// TestFaultReplace: a SetMessages whose connection drops returns nil and
// starts exactly one epoch.
func TestFaultReplace(t *testing.T) {
	for _, pt := range replacePoints {
		for _, f := range faults {
			t.Run(pt.op+"/"+f.name, func(t *testing.T) {
				s, p := faultStore(t)
				ctx := context.Background()
				h := s.History("conv")
				require.NoError(t, h.SetMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: "v1"}}))
				p.Arm(pgtest.Rule{Match: pt.match, Nth: 1, Fault: f.f})
				require.NoError(t, h.SetMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: "v2"}}))
				require.Equal(t, 1, p.Fired(), "the fault was injected")
				assert.Equal(t, int64(1), s.checked.Load(), "the ambiguous failure was checked by batch id")
				msgs, epoch, err := h.MessagesSince(ctx, 0)
				require.NoError(t, err)
				assert.Equal(t, []string{"v2"}, contents(msgs))
				assert.Equal(t, uint64(3), epoch, "two replaces, two epochs after the first")
			})
		}
	}
}

// TestFaultSave: a Save whose connection drops at any statement of its
// transaction (begin, the version check, the writes, the commit), before
// the server runs it or after, returns the next version, and the state
// and its new records are stored exactly once.
func TestFaultSave(t *testing.T) {
	for _, pt := range savePoints {
		for _, f := range faults {
			t.Run(pt.op+"/"+f.name, func(t *testing.T) {
				s, p := faultStore(t)
				ctx := context.Background()
				st := store.State{SessionID: "conv", Chain: []store.Record{record("s1")}, UpTo: 3, HistoryLen: 4}
				v, err := s.Save(ctx, st, 0)
				require.NoError(t, err)
				st.Version, st.Chain, st.UpTo = v, append(st.Chain, record("s2")), 6
				p.Arm(pgtest.Rule{Match: pt.match, Nth: 1, Fault: f.f})
				v, err = s.Save(ctx, st, 1)
				require.NoError(t, err)
				require.Equal(t, 1, p.Fired(), "the fault was injected")
				assert.Equal(t, int64(2), v)
				got, err := s.Load(ctx, "conv")
				require.NoError(t, err)
				assert.Equal(t, int64(2), got.Version, "saved once")
				assert.Equal(t, 6, got.UpTo)
				require.Len(t, got.Chain, 2, "each record stored once")
				assert.Equal(t, "s2", got.Chain[1].ID)
				// The next save still compares against version 2.
				_, err = s.Save(ctx, st, 2)
				assert.ErrorIs(t, err, store.ErrConflict)
			})
		}
	}
}

// TestFaultReads: every read is sent again when its connection drops,
// before or after the server answered it.
func TestFaultReads(t *testing.T) {
	reads := []struct {
		match string
		read  func(context.Context, *Store) error
	}{
		{"array_agg(r.record", func(ctx context.Context, s *Store) error { _, err := s.Load(ctx, "conv"); return err }},
		{"SELECT version FROM", func(ctx context.Context, s *Store) error { _, err := s.Version(ctx, "conv"); return err }},
		{"LEFT JOIN", func(ctx context.Context, s *Store) error { _, err := s.History("conv").Messages(ctx); return err }},
		{"ts_rank", func(ctx context.Context, s *Store) error {
			_, err := s.History("conv").(store.Searcher).Search(ctx, "hello", 3)
			return err
		}},
		{"SELECT ref, message_id", func(ctx context.Context, s *Store) error { _, err := s.Original(ctx, "conv", "r1"); return err }},
	}
	for _, r := range reads {
		for _, f := range faults {
			t.Run(r.match+"/"+f.name, func(t *testing.T) {
				s, p := faultStore(t)
				ctx := context.Background()
				require.NoError(t, s.History("conv").AddMessage(ctx, llms.HumanChatMessage{Content: "hello"}))
				require.NoError(t, s.PutOriginals(ctx, "conv", []store.Original{{Ref: "r1", Role: llms.ChatMessageTypeTool, Text: "hello"}}))
				p.Arm(pgtest.Rule{Match: r.match, Nth: 1, Fault: f.f})
				require.NoError(t, r.read(ctx, s))
				assert.Equal(t, 1, p.Fired(), "the fault was injected")
			})
		}
	}
}

// TestFaultOriginalsAndLeases: originals and leases are sent again when
// their connection drops, with the same outcome as without the fault.
func TestFaultOriginalsAndLeases(t *testing.T) {
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			s, p := faultStore(t)
			ctx := context.Background()
			p.Arm(pgtest.Rule{Match: "DO NOTHING", Nth: 1, Fault: f.f})
			require.NoError(t, s.PutOriginals(ctx, "conv", []store.Original{{Ref: "r1", Role: llms.ChatMessageTypeTool, Text: "out"}}))
			o, err := s.Original(ctx, "conv", "r1")
			require.NoError(t, err)
			assert.Equal(t, "out", o.Text)

			p.Arm(pgtest.Rule{Match: "clock_timestamp() +", Nth: 1, Fault: f.f})
			ok, err := s.TryLease(ctx, "conv", "a", time.Minute)
			require.NoError(t, err)
			assert.True(t, ok, "the lease is taken (a retry extends the holder's own)")
			ok, err = s.TryLease(ctx, "conv", "b", time.Minute)
			require.NoError(t, err)
			assert.False(t, ok, "held by a")

			p.Arm(pgtest.Rule{Match: "AND holder = $2", Nth: 1, Fault: f.f})
			require.NoError(t, s.ReleaseLease(ctx, "conv", "a"))
			ok, err = s.TryLease(ctx, "conv", "b", time.Minute)
			require.NoError(t, err)
			assert.True(t, ok, "released")
			assert.Equal(t, 3, p.Fired(), "each fault was injected")
		})
	}
}

// TestFaultConnect: the pool cannot connect for a while (its connections
// closed, the next connection attempts refused): a write and a read wait
// it out under the retry policy.
func TestFaultConnect(t *testing.T) {
	s, p := faultStore(t)
	ctx := context.Background()
	h := s.History("conv")
	s.pool.Reset() // every next acquire connects
	p.Arm(pgtest.Rule{Nth: 1, Fault: pgtest.RefuseConnect})
	p.Arm(pgtest.Rule{Nth: 2, Fault: pgtest.RefuseConnect})
	require.NoError(t, h.AddMessage(ctx, llms.HumanChatMessage{Content: "x"}))
	s.pool.Reset()
	p.Arm(pgtest.Rule{Nth: 1, Fault: pgtest.RefuseConnect})
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, contents(msgs))
	assert.Equal(t, 3, p.Fired(), "the connections were refused")
}

// TestFaultPolicySpent: a server that stays unreachable past the policy's
// time fails the call with an error that says what was attempted.
func TestFaultPolicySpent(t *testing.T) {
	p, dsn := pgtest.NewProxy(t, testDSN(t))
	s, err := New(context.Background(), dsn, WithTablePrefix(randomPrefix(t)),
		WithRetry(RetryPolicy{MaxWait: 200 * time.Millisecond}))
	require.NoError(t, err)
	t.Cleanup(func() {
		assert.NoError(t, s.dropAll(context.Background()))
		s.Close()
	})
	s.pool.Reset()
	for i := 1; i <= 1000; i++ {
		p.Arm(pgtest.Rule{Nth: i, Fault: pgtest.RefuseConnect})
	}
	_, err = s.Version(context.Background(), "conv")
	p.Disarm()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `pgstore: version of session "conv"`)
	assert.Positive(t, p.Fired())
}

func contents(msgs []llms.ChatMessage) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.GetContent()
	}
	return out
}

func record(id string) store.Record {
	r := store.Record{}
	r.ID, r.Depth, r.Mode, r.Summary = id, 1, "rule", fmt.Sprintf("summary %s", id)
	r.Timestamp = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return r
}
