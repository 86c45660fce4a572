package jetstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	njs "github.com/nats-io/nats.go/jetstream"
)

// TestConsumerRacedIsRetried: the server's failure to store a consumer
// whose namesake reset had just deleted (seen in CI: "rename
// …/obs/inbox_Bob/o.dat.tmp: no such file or directory") is retried;
// other failures to create one are not, and neither are other API errors.
func TestConsumerRacedIsRetried(t *testing.T) {
	t.Parallel()
	raced := &njs.APIError{Code: 500, ErrorCode: njs.JSErrCodeConsumerCreate, Description: "rename o.dat.tmp o.dat: no such file or directory"}
	for _, tc := range []struct {
		err   error
		retry bool
	}{
		{raced, true},
		{fmt.Errorf("create: %w", raced), true},
		{&njs.APIError{Code: 400, ErrorCode: njs.JSErrCodeConsumerCreate, Description: "bad config"}, false},
		{&njs.APIError{Code: 500, ErrorCode: 10101, Description: "other"}, false},
		{errors.New("plain"), false},
	} {
		if got := transient(tc.err); got != tc.retry {
			t.Errorf("%v: retried %v, want %v", tc.err, got, tc.retry)
		}
	}
	// Through the retry loop: the second attempt succeeds.
	c := &Conn{cfg: Config{Retry: 5e9}, log: slog.New(slog.DiscardHandler)}
	n := 0
	err := c.retry(context.Background(), func(context.Context) error {
		if n++; n == 1 {
			return raced
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("retry: %v after %d attempts, want nil after 2", err, n)
	}
}
