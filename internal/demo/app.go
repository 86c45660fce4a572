package demo

import (
	"context"
	"strings"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/escalation"
)

// AppEscalate is Services.Escalate over the service layer: the telemetry
// escalated as "parley escalate" does, silently, each decision returned
// with the line escalate prints for it.
func AppEscalate(a *app.App) func(ctx context.Context, telemetry string) ([]Escalation, error) {
	return func(ctx context.Context, telemetry string) ([]Escalation, error) {
		var es []Escalation
		_, err := a.Escalate(ctx, app.EscalateOptions{Telemetry: telemetry,
			Decided: func(d *escalation.Decision, line []byte) error {
				es = append(es, Escalation{Decision: *d, Line: strings.TrimRight(string(line), "\n")})
				return nil
			}})
		return es, err
	}
}
