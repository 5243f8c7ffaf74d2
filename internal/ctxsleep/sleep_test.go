package ctxsleep

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("a full wait: %v", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Fatalf("no wait on a live context: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("a done context ends the wait with its error, got %v", err)
	}
	if err := Sleep(ctx, -time.Second); !errors.Is(err, context.Canceled) {
		t.Fatalf("a done context, no wait: got %v", err)
	}
}

func ExampleSleep() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = Sleep(ctx, time.Hour) // returns at once: context.Canceled
}
