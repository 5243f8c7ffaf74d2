package middleware_test

import (
	"errors"
	"fmt"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/middleware"
)

// WrapChecked reports a nil model or an option out of its range at once;
// middleware.Wrap would fail the first call with the same error.
func ExampleWrapChecked() {
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = middleware.WrapChecked(echoModel{}, c, middleware.WithMaxSessions(-1))
	fmt.Println(errors.Is(err, compact.ErrInvalidOption))
	fmt.Println(err)

	_, err = middleware.WrapChecked(nil, c)
	fmt.Println(err)
	// Output:
	// true
	// middleware: compact: invalid option: WithMaxSessions: -1 must be >= 1
	// middleware: Wrap was given a nil model or compactor: the model to wrap is nil
}
