package extractors

import "github.com/tmc/langchaingo/llms"

// CallsByID indexes the tool calls of the AI messages in msgs by call id.
// Calls without an id or without a function are skipped; when an id repeats
// the last call wins. The result is a new map owned by the caller; msgs is
// not modified.
func CallsByID(msgs []llms.MessageContent) map[string]Call {
	out := make(map[string]Call)
	for _, m := range msgs {
		for _, p := range m.Parts {
			tc, ok := toolCallPart(p)
			if !ok || tc.ID == "" || tc.FunctionCall == nil {
				continue
			}
			out[tc.ID] = Call{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: tc.FunctionCall.Arguments}
		}
	}
	return out
}

// ResolveCall returns the call a tool result answers: the call with the
// result's id from calls, with the result's own name when it carries one
// (langchaingo's functions agent leaves it empty).
func ResolveCall(resp llms.ToolCallResponse, calls map[string]Call) Call {
	c, ok := calls[resp.ToolCallID]
	if !ok {
		c = Call{ID: resp.ToolCallID}
	}
	if resp.Name != "" {
		c.Name = resp.Name
	}
	return c
}

// toolCallPart returns p as a tool call (value or pointer).
func toolCallPart(p llms.ContentPart) (llms.ToolCall, bool) {
	switch v := p.(type) {
	case llms.ToolCall:
		return v, true
	case *llms.ToolCall:
		if v != nil {
			return *v, true
		}
	}
	return llms.ToolCall{}, false
}

// toolResponsePart returns p as a tool call response (value or pointer).
func toolResponsePart(p llms.ContentPart) (llms.ToolCallResponse, bool) {
	switch v := p.(type) {
	case llms.ToolCallResponse:
		return v, true
	case *llms.ToolCallResponse:
		if v != nil {
			return *v, true
		}
	}
	return llms.ToolCallResponse{}, false
}

// textPart returns the text of p when p is text (value or pointer).
func textPart(p llms.ContentPart) (string, bool) {
	switch v := p.(type) {
	case llms.TextContent:
		return v.Text, true
	case *llms.TextContent:
		if v != nil {
			return v.Text, true
		}
	}
	return "", false
}
