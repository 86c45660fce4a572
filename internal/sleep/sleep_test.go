package sleep

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	t.Parallel()
	if err := For(context.Background(), time.Millisecond); err != nil {
		t.Errorf("a full sleep = %v, want nil", err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(done, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("a sleep on a done context = %v, want Canceled", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	go func() { time.Sleep(5 * time.Millisecond); stop() }()
	if err := For(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("a sleep cut short = %v, want Canceled", err)
	}
}
