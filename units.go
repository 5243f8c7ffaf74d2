package compact

import (
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// OpensToolRound reports whether mc opens a tool round: an AI message
// calling tools. The engine treats a tool round (that message and the tool
// messages right after it) as one unit: dropped and summarized whole,
// never split (invariant I2). An adapter that moves a window over a
// history uses it, with [IsToolResult], to keep units whole as the engine
// does.
func OpensToolRound(mc llms.MessageContent) bool {
	return mc.Role == llms.ChatMessageTypeAI && msg.HasToolCall(mc)
}

// IsToolResult reports whether mc is a tool message: part of the tool
// round opened before it ([OpensToolRound]).
func IsToolResult(mc llms.MessageContent) bool { return mc.Role == llms.ChatMessageTypeTool }
