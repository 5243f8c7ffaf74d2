package memory

import (
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// withoutRetrieved returns msgs without the trailing retrieved message.
func withoutRetrieved(msgs []llms.ChatMessage) []llms.ChatMessage {
	if n := len(msgs); n > 0 && strings.HasPrefix(msgs[n-1].GetContent(), RetrievedPreamble) {
		return msgs[:n-1]
	}
	return msgs
}
