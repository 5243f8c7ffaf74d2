package recall

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// OriginalOf returns the original of an engine message, as the agent first
// saw it, to keep under its ref (the adapters call it for every message a
// compaction masked, cut or summarized):
//
//   - a tool message: its outputs (the contents of its tool call responses),
//     one after the other, each on its own lines;
//   - a user or system message: its text;
//   - an AI message: its text, then "name(arguments)" per tool call; when
//     the arguments are a JSON object whose string values hold line breaks
//     (a file written in one call, a here-document), they are shown as
//     "name(" then one "key: value" entry per argument, string values
//     decoded, then ")", so that the original pages line by line instead
//     of standing as one long line.
//
// Parts are joined with "\n", in order, whatever the role; pointer parts
// are read like values. An image is shown as "[image: URL]" ("[image:
// inline data, N bytes]" for a data URL), binary content as "[binary MIME,
// N bytes]", never their bytes. Name is the tool's name: that of the first
// named tool call response, or of the first tool call; langchaingo's
// functions agent leaves responses unnamed, so an adapter that knows the
// call may set it afterwards. Role is m's role; Ref and MessageID are the
// arguments. OriginalOf does not modify m and never panics.
func OriginalOf(ref, messageID string, m llms.MessageContent) store.Original {
	o := store.Original{Ref: ref, MessageID: messageID, Role: m.Role}
	var b strings.Builder
	add := func(s string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			add(p.Text)
		case *llms.TextContent:
			if p != nil {
				add(p.Text)
			}
		case llms.ToolCallResponse:
			add(p.Content)
			o.Name = firstName(o.Name, p.Name)
		case *llms.ToolCallResponse:
			if p != nil {
				add(p.Content)
				o.Name = firstName(o.Name, p.Name)
			}
		case llms.ToolCall:
			o.Name = addCall(add, o.Name, p)
		case *llms.ToolCall:
			if p != nil {
				o.Name = addCall(add, o.Name, *p)
			}
		case llms.ImageURLContent:
			add(imageLine(p.URL))
		case *llms.ImageURLContent:
			if p != nil {
				add(imageLine(p.URL))
			}
		case llms.BinaryContent:
			add(fmt.Sprintf("[binary %s, %d bytes]", p.MIMEType, len(p.Data)))
		case *llms.BinaryContent:
			if p != nil {
				add(fmt.Sprintf("[binary %s, %d bytes]", p.MIMEType, len(p.Data)))
			}
		}
	}
	o.Text = b.String()
	return o
}

// firstName returns name when it is set, else n.
func firstName(name, n string) string {
	if name != "" {
		return name
	}
	return n
}

// addCall adds the line "name(arguments)" of a tool call and returns the
// original's name.
func addCall(add func(string), name string, c llms.ToolCall) string {
	if c.FunctionCall == nil {
		return name
	}
	if args, ok := decodedArgs(c.FunctionCall.Arguments); ok {
		add(c.FunctionCall.Name + "(\n" + args + "\n)")
	} else {
		add(c.FunctionCall.Name + "(" + c.FunctionCall.Arguments + ")")
	}
	return firstName(name, c.FunctionCall.Name)
}

// decodedArgs returns the arguments of a tool call as "key: value" lines,
// string values decoded, in the order they were written, when they are a
// JSON object with a multi-line string value; false otherwise (they are
// then shown as written).
func decodedArgs(args string) (string, bool) {
	if !strings.Contains(args, `\n`) {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(args))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	var b strings.Builder
	for dec.More() {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			return "", false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(key + ": ")
		var str string
		if json.Unmarshal(v, &str) == nil {
			b.WriteString(str)
		} else {
			b.Write(v)
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false
	}
	return b.String(), true
}

// imageLine is the placeholder of an image part.
func imageLine(url string) string {
	if strings.HasPrefix(url, "data:") {
		return fmt.Sprintf("[image: inline data, %d bytes]", len(url))
	}
	return "[image: " + url + "]"
}
