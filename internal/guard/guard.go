// Package guard runs a call to code the caller does not trust to honour
// its context or not to panic (a custom summarizer, an embedder) so that
// the context bounds the wait and a panic becomes an error.
package guard

import (
	"context"
	"fmt"
)

// Call runs f(ctx) in a goroutine of its own and returns its answer with
// answered true; when ctx ends first, it returns T's zero value, ctx's
// cause and answered false, and f's late answer is dropped (it never
// blocks). A panic in f is returned as an error "<what> panicked: <value>".
func Call[T any](ctx context.Context, what string, f func(context.Context) (T, error)) (v T, answered bool, err error) {
	type answer struct {
		v   T
		err error
	}
	ch := make(chan answer, 1) // buffered: a late answer never blocks
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- answer{err: fmt.Errorf("%s panicked: %v", what, r)}
			}
		}()
		v, err := f(ctx)
		ch <- answer{v, err}
	}()
	select {
	case a := <-ch:
		return a.v, true, a.err
	case <-ctx.Done():
		var zero T
		return zero, false, context.Cause(ctx)
	}
}
