package otelcompact

import (
	"context"
	"errors"
	"strconv"

	"github.com/agentcompact/compact/prompts"
)

// Error types recorded as error.type: a closed set, plus HTTP status codes.
const (
	ErrorTypeCanceled       = "canceled"        // the call's context was cancelled
	ErrorTypeTimeout        = "timeout"         // a deadline passed
	ErrorTypeInvalidSummary = "invalid_summary" // the reply was not a valid summary (prompts.ErrInvalidSummary)
	ErrorTypeOther          = "_OTHER"          // the semantic conventions' fallback
)

// ErrorType classifies err for the error.type attribute: "" for nil, the
// HTTP status code (such as "429") when the error reports one through a
// StatusCode() int or HTTPStatusCode() int method, one of the ErrorType
// constants otherwise. It never returns the error's message, so its values
// are a bounded set.
func ErrorType(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.Canceled):
		return ErrorTypeCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return ErrorTypeTimeout
	case errors.Is(err, prompts.ErrInvalidSummary):
		return ErrorTypeInvalidSummary
	}
	var sc interface{ StatusCode() int }
	if errors.As(err, &sc) && validStatus(sc.StatusCode()) {
		return strconv.Itoa(sc.StatusCode())
	}
	var hc interface{ HTTPStatusCode() int }
	if errors.As(err, &hc) && validStatus(hc.HTTPStatusCode()) {
		return strconv.Itoa(hc.HTTPStatusCode())
	}
	return ErrorTypeOther
}

// validStatus reports whether code is an HTTP status code (100-599).
func validStatus(code int) bool { return code >= 100 && code <= 599 }

// errorTypeText is ErrorType for an error known only by its text (an event
// decoded from JSON): ErrorTypeOther when the text is not empty.
func errorTypeText(err error, text string) string {
	if err != nil {
		return ErrorType(err)
	}
	if text != "" {
		return ErrorTypeOther
	}
	return ""
}
