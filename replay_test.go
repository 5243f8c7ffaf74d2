package compact

import (
	"context"
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestReplayInvariants replays real trajectories message by message, as an
// agent would call the model, at small windows, and checks the invariants
// and prefix stability on every call.
func TestReplayInvariants(t *testing.T) {
	for _, name := range []string{"mini-gemini3pro__django__django-10973", "sweagent__demo-marshmallow-1867-fc", "sweagent__test-repo-1c2844-fc"} {
		for _, window := range []int{8_000, 16_000, 32_000} {
			t.Run(fmt.Sprintf("%s/%d", name, window), func(t *testing.T) {
				msgs := loadTestTrajectory(t, name)
				c, err := New(WithContextWindow(window), WithReservedOutput(1_000))
				require.NoError(t, err)
				s := NewSession(name)
				var prev []llms.MessageContent
				compactions := 0
				for i := 1; i <= len(msgs); i++ {
					// An agent calls the model before each assistant turn.
					if i < len(msgs) && msgs[i].Role != llms.ChatMessageTypeAI {
						continue
					}
					in := msgs[:i]
					res, err := c.Compact(context.Background(), s, in)
					require.NoError(t, err, "call %d", i)
					require.NoError(t, checkOutput(c, in, res), "call %d", i)
					if res.Compacted {
						compactions++
					} else if prev != nil {
						// I7: previous output is a prefix of this one.
						require.GreaterOrEqual(t, len(res.Messages), len(prev), "call %d", i)
						for k := range prev {
							require.Equal(t, msg.Hash(prev[k]), msg.Hash(res.Messages[k]), "call %d: message %d changed without compaction", i, k)
						}
					}
					prev = res.Messages
				}
				t.Logf("window %d: %d messages, %d compactions, final %d tokens, chain %d", window, len(msgs), compactions, c.CountTokens(prev), len(s.Summaries()))
			})
		}
	}
}
