package prompts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrInvalidSummary is wrapped by every error of [ParseSummary] and
// [Summary.Validate]: the reply is not one JSON object of the summary schema
// or breaks one of its caps. Callers branch on it with errors.Is; such an
// error is not worth retrying with the same model and input.
var ErrInvalidSummary = errors.New("invalid summary")

// maxReplyBytes bounds the reply ParseSummary looks at; a valid summary is
// far smaller (see the caps of [Summary.Validate]).
const maxReplyBytes = 1 << 20

// ParseSummary parses a summarizer model's reply into a [Summary] and
// validates it.
//
// The reply must be exactly one JSON object, optionally surrounded by white
// space and optionally wrapped in one markdown code fence (```json ... ``` or
// ``` ... ```). Unknown fields are ignored; a "schemaVersion" field, when
// present, must equal [SchemaVersion]. "summary" is required; a missing
// "keyPoints" or "context" is read as empty. The result is [Summary.Normalized]
// and then checked with [Summary.Validate]. Anything else, including prose
// around the object, trailing data, wrong types and broken caps, yields an
// error wrapping [ErrInvalidSummary]. ParseSummary never panics and is safe
// for concurrent use.
func ParseSummary(text string) (Summary, error) {
	if len(text) > maxReplyBytes {
		return Summary{}, fmt.Errorf("%w: reply has %d bytes, at most %d", ErrInvalidSummary, len(text), maxReplyBytes)
	}
	body, err := unfence(text)
	if err != nil {
		return Summary{}, err
	}
	var wire struct {
		SchemaVersion *int     `json:"schemaVersion"`
		Summary       *string  `json:"summary"`
		KeyPoints     []string `json:"keyPoints"`
		Context       *Context `json:"context"`
	}
	if !strings.HasPrefix(body, "{") {
		return Summary{}, fmt.Errorf("%w: reply is not a JSON object", ErrInvalidSummary)
	}
	dec := json.NewDecoder(strings.NewReader(body))
	if err := dec.Decode(&wire); err != nil {
		return Summary{}, fmt.Errorf("%w: decode JSON: %v", ErrInvalidSummary, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Summary{}, fmt.Errorf("%w: trailing data after the JSON object", ErrInvalidSummary)
	}
	if wire.SchemaVersion != nil && *wire.SchemaVersion != SchemaVersion {
		return Summary{}, fmt.Errorf("%w: schemaVersion %d, want %d", ErrInvalidSummary, *wire.SchemaVersion, SchemaVersion)
	}
	if wire.Summary == nil {
		return Summary{}, fmt.Errorf("%w: field \"summary\" is missing", ErrInvalidSummary)
	}
	s := Summary{Summary: *wire.Summary, KeyPoints: wire.KeyPoints}
	if wire.Context != nil {
		s.Context = *wire.Context
	}
	s = s.Normalized()
	if err := s.Validate(); err != nil {
		return Summary{}, err
	}
	return s, nil
}

// unfence trims text and removes one surrounding markdown code fence, if any.
func unfence(text string) (string, error) {
	s := strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF"))
	if !strings.HasPrefix(s, "```") {
		return s, nil
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 {
		return "", fmt.Errorf("%w: unterminated code fence", ErrInvalidSummary)
	}
	lang := strings.ToLower(strings.TrimSpace(s[3:nl]))
	if lang != "" && lang != "json" {
		return "", fmt.Errorf("%w: code fence of language %q, want json", ErrInvalidSummary, truncate(lang, 20))
	}
	rest := strings.TrimRight(s[nl+1:], " \t\r\n")
	if !strings.HasSuffix(rest, "```") {
		return "", fmt.Errorf("%w: unterminated code fence", ErrInvalidSummary)
	}
	return strings.TrimSpace(strings.TrimSuffix(rest, "```")), nil
}

// MarshalSummary renders s as the compact JSON object of the schema, with
// empty arrays as []. It is how a previous summary is shown to the model.
func MarshalSummary(s Summary) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Encoding a struct of strings cannot fail.
	_ = enc.Encode(s.Normalized())
	return strings.TrimSuffix(buf.String(), "\n")
}

// truncate cuts s to at most n runes.
func truncate(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
