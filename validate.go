package compact

import (
	"errors"
	"fmt"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/internal/msg"

	"github.com/tmc/langchaingo/llms"
)

// ErrInvariant reports that an output failed the engine's final validation
// pass. It signals a bug in the engine: the output is not returned.
var ErrInvariant = errors.New("compact: invariant violated")

// CheckToolPairs reports the first violation of tool pairing in msgs, or
// nil: every tool result must answer a call of the assistant message right
// before its block of tool messages, and every call must have its result
// before the next non-tool message. This is what providers require (I2).
func CheckToolPairs(msgs []llms.MessageContent) error {
	var pending map[string]int
	close := func(i int) error {
		for id, n := range pending {
			if n > 0 {
				return fmt.Errorf("message %d: tool call %s has no result", i, idtext.Quote(id))
			}
		}
		pending = nil
		return nil
	}
	for i, m := range msgs {
		if m.Role == llms.ChatMessageTypeTool {
			for _, p := range m.Parts {
				r, ok := p.(llms.ToolCallResponse)
				if !ok {
					continue
				}
				if pending[r.ToolCallID] <= 0 {
					return fmt.Errorf("message %d: tool result %s does not answer a preceding call", i, idtext.Quote(r.ToolCallID))
				}
				pending[r.ToolCallID]--
			}
			continue
		}
		if err := close(i); err != nil {
			return err
		}
		for _, p := range m.Parts {
			if tc, ok := p.(llms.ToolCall); ok {
				if pending == nil {
					pending = map[string]int{}
				}
				pending[tc.ID]++
			}
		}
	}
	return close(len(msgs))
}

// validate is the final pass over an output: budget (I1), pairs (I2), the
// leading system messages first and verbatim (I3), the latest user message
// present (I4).
func (c *Compactor) validate(w *work, out []llms.MessageContent, tokens, bud int) error {
	if got := w.withReserve(c.counter.CountMessages(out), len(out)); got != tokens || tokens > bud {
		return fmt.Errorf("%w: I1: %d tokens (tracked %d), budget %d", ErrInvariant, got, tokens, bud)
	}
	if err := CheckToolPairs(out); err != nil {
		return fmt.Errorf("%w: I2: %w", ErrInvariant, err)
	}
	for i := 0; i < w.lead; i++ {
		if i >= len(out) || msg.Hash(out[i]) != msg.Hash(w.msgs[i]) {
			return fmt.Errorf("%w: I3: system message %d changed", ErrInvariant, i)
		}
	}
	if w.last >= 0 && w.dropped[w.last] {
		return fmt.Errorf("%w: I4: latest user message dropped", ErrInvariant)
	}
	return nil
}
