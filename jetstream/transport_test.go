package jetstream_test

import (
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
)

// The JetStream transport passes the inbox conformance suite unchanged,
// each subtest against its own embedded server.
func TestConformance(t *testing.T) {
	t.Parallel()
	inboxtest.Run(t, func(t testing.TB) inbox.Transport {
		return connect(t, startServer(t).URL()).Transport()
	})
}
