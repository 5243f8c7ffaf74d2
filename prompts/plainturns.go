package prompts

import "strings"

// plainTurns reports whether a rendered transcript (see RenderMessage) is
// plain conversation turns: no <tool_call> and no <tool_output> element
// (message text cannot forge one: EscapeData escapes such tags).
func plainTurns(transcript string) bool {
	return transcript != "" && !strings.Contains(transcript, "<tool_call ") && !strings.Contains(transcript, "<tool_output ")
}
