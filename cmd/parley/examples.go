package main

import "sync"

// examples are the "Examples:" block of every command's help, by command
// path without "parley ". Each line that starts with "parley" is a command
// line a test parses: it names this command and only flags it accepts.
// The map is built on first use, not at start-up.
var examples = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"": `  parley demo                                  # the whole flow on a temporary root, in seconds
  parley init                                  # a root (.parley) and its vault in this directory
  parley --root /srv/parley debate list        # the debates of another root`,

		"init": `  parley init                                  # .parley/ and .parley/vault/ in this directory
  parley --root /srv/parley init               # a root elsewhere
  parley --root . --vault ~/notes init         # the root here, an existing Obsidian vault as the vault`,

		"demo": `  parley demo                                  # on a new temporary root, which it keeps
  parley demo --dir /tmp/parley-demo           # on a root you choose`,

		"agents": `  parley agents list
  parley agents show ZestyWolf`,
		"agents list": `  parley agents list                           # NAME PID HOST ROLES MODEL HEARTBEAT
  parley --json agents list                    # one JSON object per live agent`,
		"agents show": `  parley agents show ZestyWolf                 # live, stopped, or never registered; its inbox
  parley --json agents show ZestyWolf`,
		"agents prune": `  parley agents prune                          # removes the registrations of dead agents`,
		"agents add":   `  parley agents add Reviewer                   # messages can be sent to Reviewer before it runs`,

		"send": `  parley send --from Alice --to Bob 'Is the cache key per tenant?'
  git diff | parley send --from Alice --to Bob --type review -
  parley send --from Alice --to Bob --require-live 'ping'    # an error if Bob is not running`,
		"recv": `  parley recv --as Bob                         # claim, print and acknowledge what waits
  parley recv --as Bob --wait 30s              # wait up to 30 s for the first message
  parley --json recv --as Bob --all            # every waiting message, one JSON line each`,
		"watch": `  parley watch --as Bob                        # until Ctrl-C
  parley --json watch --as Bob`,

		"agent": `  parley agent run --name Critic --role attacker --script critic.json`,
		"agent run": `  parley agent run --name Critic --role attacker --script critic.json
  parley agent run --name Judge --role defender --openai llama3.1:8b
  parley agent run --name Checker --role attacker --exec './check.sh'`,

		"debate": `  parley debate run --layer spec --topic 'Rate limits' --agent attacker=script:critic.json --agent defender=script:proposer.json
  parley debate list
  parley debate status 20261130-spec-rate`,
		"debate run": `  parley debate run --layer spec --topic 'Rate limits' --position 'A token bucket per tenant' \
    --context proposal.md --agent attacker=script:critic.json --agent defender=script:proposer.json
  parley debate run --layer plan --topic 'Migration' --agent attacker=openai:qwen2.5:7b-instruct \
    --agent defender=openai:llama3.1:8b --max-rounds 5 --timeout 10m`,
		"debate start": `  parley debate start --layer spec --topic 'Rate limits' --agent attacker=script:critic.json --agent defender=script:proposer.json
  parley debate watch 20261130-spec-rate      # then follow it (a unique prefix of its id is enough)`,
		"debate status": `  parley debate status 20261130-spec-rate-limits-676i62
  parley debate status 20261130-spec-rate      # a unique prefix of the id
  parley --json debate status 20261130-spec-rate`,
		"debate watch":  `  parley debate watch 20261130-spec-rate       # until its verdict; exit 3 unless CONSENSUS_REACHED`,
		"debate resume": `  parley debate resume 20261130-spec-rate      # after a crash, kill -9 or Ctrl-C`,
		"debate list": `  parley debate list                           # ID STATE VERDICT TOPIC, newest first
  parley --json debate list`,

		"gate": `  parley gate critique.md                      # decision, score, threshold and the cues that fired
  parley --json gate - < critique.json
  parley gate --exit-code --layer verify critique.md   # exit 3 when the decision is debate
  parley gate --mode rules critique.md         # skip iff confident (>= 0.8) and no doubt cue fired`,
		"gate train": `  parley gate train --data corpus.jsonl --out my-model.json`,
		"gate eval": `  parley gate eval --data held-out.jsonl
  parley gate eval --data held-out.jsonl --model my-model.json`,
		"gate stats": `  parley gate stats                            # decisions, skip rate, tokens saved
  parley --json gate stats`,

		"consensus": `  parley consensus check --layer spec --topic 'Rate limits' --position 'A token bucket per tenant'
  parley consensus list`,
		"consensus list": `  parley consensus list                        # DATE LAYER VERDICT STATUS NAME TOPIC, newest first
  parley consensus list --layer spec --status active`,
		"consensus show": `  parley consensus show spec-rate-limits       # by name (a unique prefix is enough)
  parley consensus show 20261130-spec-rate-limits-676i62   # by the debate that filed it`,
		"consensus search": `  parley consensus search idempotency key
  parley consensus search --layer verify --limit 5 cache invalidation`,
		"consensus check": `  parley consensus check --layer spec --topic 'Rate limits' --position 'A token bucket per tenant'
                                               # exit 3 on a conflict with the active record`,
		"consensus file": `  parley consensus file --from-debate 20261130-spec-rate   # file the record of a closed debate again`,

		"transcripts": `  parley transcripts list
  parley transcripts verify 20261130-spec-rate`,
		"transcripts list": `  parley transcripts list                      # DATE LAYER VERDICT ROUNDS TOKENS ID TOPIC
  parley transcripts list --layer spec --since 7d`,
		"transcripts show": `  parley transcripts show 20261130-spec-rate   # rounds, turns, evidence, verdict; integrity first
  parley transcripts show 20261130-spec-rate --format md`,
		"transcripts verify": `  parley transcripts verify 20261130-spec-rate  # exit 3 and the first bad line if tampered with`,

		"serve": `  parley serve                                 # http://127.0.0.1:7420/
  parley serve --addr 127.0.0.1:8080`,
		"escalate": `  parley escalate --telemetry telemetry.jsonl
  parley escalate --telemetry telemetry.jsonl --follow --workspace /home/me/system`,
		"mcp": `  parley mcp                                   # over stdio: register this command with an MCP client
  parley mcp --http 127.0.0.1:7421             # streamable HTTP at http://127.0.0.1:7421/mcp`,
		"config": `  parley config show`,
		"vault":  `  parley vault lint                            # contradictions, broken links, orphans, stale evidence`,
		"config show": `  parley config show                           # every setting in force, as a config.json
  parley --json config show`,
		"gc": `  parley gc                                    # acknowledged messages older than the default age, stale files
  parley gc --older-than 24h`,

		"bench": `  parley bench                                 # every benchmark
  parley bench messenger
  parley --json bench gate`,
		"bench messenger": `  parley bench messenger
  parley bench messenger --transport nats --nats-url nats://127.0.0.1:4222`,
		"bench debate": `  parley bench debate                          # agent processes over the file messenger
  parley bench debate --backends file,nats --nats-url nats://127.0.0.1:4222`,
		"bench consensus": `  parley bench consensus`,
		"bench gate":      `  parley bench gate`,

		"help": `  parley help debate run                       # the same as: parley debate run --help`,
		"completion": `  parley completion bash > /etc/bash_completion.d/parley
  source <(parley completion zsh)`,
		"completion bash":       `  parley completion bash > /etc/bash_completion.d/parley`,
		"completion zsh":        `  parley completion zsh > "${fpath[1]}/_parley"`,
		"completion fish":       `  parley completion fish > ~/.config/fish/completions/parley.fish`,
		"completion powershell": `  parley completion powershell | Out-String | Invoke-Expression`,
	}
})
