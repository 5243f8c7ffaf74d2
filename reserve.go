package compact

import (
	"fmt"

	"github.com/agentcompact/compact/budget"
)

// WithReserve reserves n tokens of the budget for what the caller sends
// beside the input messages: a prompt template around them, an input not
// yet in the conversation. The engine counts them as it would a system
// message of n tokens (overhead included) placed first: never masked, cut
// or dropped, and in every figure it decides on (the trigger, the
// compaction's target, the fit checked against the budget, the event's
// tokens and the session's stats). The result's Messages then fit Budget
// less n and the reply priming; Result.Tokens and Result.InputTokens
// exclude the n tokens (Tokens is 0 for an empty input). A reserve that
// alone exceeds the budget makes Compact fail with [ErrBudgetTooSmall].
// n must be >= 0. Default 0: nothing reserved.
func WithReserve(n int) CallOption {
	return func(o *callOptions) { o.reserve = n }
}

// addReserve counts the call's reserve in w: it is part of the base every
// total includes (with the reply priming, even for an empty input).
func (w *work) addReserve(reserve int) {
	if reserve <= 0 {
		return
	}
	w.reserve = reserve
	w.base = budget.ReplyPriming + reserve
}

// reserveTokens returns the tokens of a result without the call's reserve:
// 0 for an empty input.
func (w *work) reserveTokens(tokens int) int {
	if w.reserve == 0 {
		return tokens
	}
	if len(w.msgs) == 0 {
		return 0
	}
	return tokens - w.reserve
}

// checkReserve validates the reserve of a call.
func (o *callOptions) checkReserve() error {
	if o.reserve < 0 {
		return fmt.Errorf("%w: WithReserve(%d): must be >= 0", ErrInvalidInput, o.reserve)
	}
	return nil
}

// withReserve returns the tokens counted for an output of n messages
// (got tokens as the counter counts them) with the call's reserve, as
// total counts them.
func (w *work) withReserve(got, n int) int {
	if w.reserve == 0 {
		return got
	}
	if n == 0 {
		return w.base
	}
	return got + w.reserve
}
