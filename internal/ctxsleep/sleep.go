package ctxsleep

import (
	"context"
	"time"
)

// Sleep waits d or until ctx is done, whichever comes first, and returns
// ctx's error in the latter case (nil after a full wait). A d of zero or
// less does not wait: it returns ctx's error, if any.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
