package conversation_test

import (
	"context"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// notes is an Adapter whose state is a list of notes kept in the stored
// state's Kept positions (a stand-in for an adapter's engine state).
type notes struct{ list []int }

func (n *notes) Take(_ context.Context, st store.State) (bool, error) {
	n.list = append([]int(nil), st.Kept...)
	return true, nil
}

func (n *notes) Step(context.Context, int64, compact.SummarizeGate) (conversation.Step, error) {
	n.list = append(n.list, len(n.list))
	return conversation.Step{Session: compact.NewSession("conversation-42"), Changed: true,
		Window: conversation.Window{Kept: append([]int(nil), n.list...)}}, nil
}

// Two replicas take turns on one conversation: each turn adopts what the
// other stored, so every turn builds on the one before.
func Example() {
	ctx := context.Background()
	s := store.NewMemory() // a database store (pgstore) in production
	a, b := conversation.NewReplica(s), conversation.NewReplica(s)
	na, nb := &notes{}, &notes{}
	ca, cb := conversation.NewCopy("conversation-42"), conversation.NewCopy("conversation-42")
	for i := range 4 {
		r, n, c := a, na, ca
		if i%2 == 1 {
			r, n, c = b, nb, cb
		}
		if err := r.Turn(ctx, c, n); err != nil {
			fmt.Println(err)
			return
		}
	}
	st, _ := s.Load(ctx, "conversation-42")
	fmt.Println("version", st.Version, "notes", st.Kept)
	// Output: version 4 notes [0 1 2 3]
}
