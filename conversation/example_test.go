package conversation_test

import (
	"context"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// notes is a Local whose state is a list of notes kept in the stored
// state's Kept positions (a stand-in for an adapter's engine state).
type notes struct {
	ver  int64
	ok   bool
	list []int
}

func (n *notes) Synced() (int64, bool) { return n.ver, n.ok }

func (n *notes) Adopt(_ context.Context, st store.State) error {
	n.ver, n.ok, n.list = st.Version, true, append([]int(nil), st.Kept...)
	return nil
}

func (n *notes) Step(context.Context, int64, compact.SummarizeGate) (conversation.Change, error) {
	n.list = append(n.list, len(n.list))
	return conversation.Change{State: &store.State{Kept: append([]int(nil), n.list...)}}, nil
}

func (n *notes) Saved(v int64, _ conversation.Change) { n.ver = v }
func (n *notes) Revert()                              { n.ok = false }

// Two replicas take turns on one conversation: each turn adopts what the
// other stored, so every turn builds on the one before.
func Example() {
	ctx := context.Background()
	s := store.NewMemory() // a database store (pgstore) in production
	a, b := conversation.NewReplica(s), conversation.NewReplica(s)
	na, nb := &notes{}, &notes{}
	for i := range 4 {
		r, n := a, na
		if i%2 == 1 {
			r, n = b, nb
		}
		if err := r.Turn(ctx, "conversation-42", n); err != nil {
			fmt.Println(err)
			return
		}
	}
	st, _ := s.Load(ctx, "conversation-42")
	fmt.Println("version", st.Version, "notes", st.Kept)
	// Output: version 4 notes [0 1 2 3]
}
