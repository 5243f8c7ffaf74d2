package compact

import "fmt"

// Kind classifies a unit of the conversation for stage 2 priority trimming.
// A unit is one message, or an assistant message that calls tools together
// with all of its tool results (a tool round is never split).
type Kind int

// The kinds of the priority table.
const (
	KindSystem     Kind = iota // leading system message(s): pinned, never dropped
	KindLatestUser             // the most recent user message: pinned
	KindTail                   // the preserved recent tail: pinned (stage 3 may shrink it)
	KindUser                   // older user messages
	KindAssistant              // assistant text without tool calls
	KindToolError              // a tool round whose result reports an error
	KindToolRound              // a tool round (call plus results)
	KindOther                  // any other message (e.g. generic or function roles, later system messages)
	KindTask                   // the first user message, the task of an agent run: pinned
	numKinds
)

var kindNames = [...]string{"system", "latest-user", "tail", "user", "assistant", "tool-error", "tool-round", "other", "task"}

// String returns the kind's name.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Pinned reports whether units of this kind are never dropped by stage 2.
func (k Kind) Pinned() bool {
	return k == KindSystem || k == KindLatestUser || k == KindTail || k == KindTask
}

// Priorities maps each droppable kind to its priority: stage 2 drops the
// units of the lowest priority first, oldest first within a priority, until
// the context fits the reset ratio. Pinned kinds (system, latest user, task,
// tail) are never dropped whatever their value. The task is the first user
// message: agents such as mini-swe-agent state the task there and later user
// messages are format feedback, so pinning only the latest one (I4) would
// let the task be summarized away. The previous summary is never
// dropped either: it is folded into the next one. A Priorities value is
// read-only once passed to [WithPriorities].
type Priorities map[Kind]int

// DefaultPriorities returns the default table (higher is kept longer):
//
//	system        100 (pinned)
//	latest-user   100 (pinned)
//	task          100 (pinned)
//	tail           90 (pinned)
//	user           60  the user's earlier instructions
//	assistant      40  the agent's reasoning and answers
//	tool-error     30  failed tool rounds (they explain later choices)
//	other          20
//	tool-round     10  successful tool rounds, the bulk of an agent's context
//
// It returns a new map on every call.
func DefaultPriorities() Priorities {
	p := make(Priorities, numKinds)
	for k, v := range defaultPriority {
		p[Kind(k)] = v
	}
	return p
}

// defaultPriority is the default table, indexed by Kind; it is never written.
var defaultPriority = [numKinds]int{
	KindSystem: 100, KindLatestUser: 100, KindTask: 100, KindTail: 90,
	KindUser: 60, KindAssistant: 40, KindToolError: 30, KindOther: 20, KindToolRound: 10,
}

// of returns the priority of k, the default for a kind missing from p.
func (p Priorities) of(k Kind) int {
	if v, ok := p[k]; ok {
		return v
	}
	if k >= 0 && k < numKinds {
		return defaultPriority[k]
	}
	return 0
}
