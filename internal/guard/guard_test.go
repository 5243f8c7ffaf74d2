package guard

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCall(t *testing.T) {
	ctx := context.Background()
	v, ok, err := Call(ctx, "f", func(context.Context) (int, error) { return 7, nil })
	assert.Equal(t, 7, v)
	assert.True(t, ok)
	assert.NoError(t, err)

	boom := errors.New("boom")
	_, ok, err = Call(ctx, "f", func(context.Context) (int, error) { return 0, boom })
	assert.True(t, ok)
	assert.ErrorIs(t, err, boom)

	_, ok, err = Call(ctx, "embedder", func(context.Context) (int, error) { panic("bad") })
	assert.True(t, ok)
	assert.EqualError(t, err, "embedder panicked: bad")

	cause := errors.New("deadline of the test")
	cctx, cancel := context.WithCancelCause(ctx)
	cancel(cause)
	release := make(chan struct{})
	defer close(release)
	v, ok, err = Call(cctx, "f", func(context.Context) (int, error) { <-release; return 1, nil }) // ignores its context
	assert.Zero(t, v)
	assert.False(t, ok)
	assert.ErrorIs(t, err, cause)
}
