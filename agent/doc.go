// Package agent keeps one debate agent alive and says how it answers.
//
// It owns:
//   - the Runner: it registers the agent, heartbeats, answers the
//     turn_requests in its inbox through a Responder, answers a repeated
//     request from its cache, and unregisters when its context ends
//     (runner.go, registry.go; WatchParent for an agent a debate started);
//   - agent specs and adapters: a spec's kind ("script:FILE",
//     "exec:COMMAND", "openai:MODEL") names the Responder that answers;
//     "@NAME" is an agent that is already running and has no adapter
//     (spec.go). The script and exec adapters are a file each;
//   - the LLM turn loop (llm.go), provider-neutral: prompting from the
//     templates (prompts.go), reading and repairing the model's reply
//     (reply.go), retries with backoff, token accounting, and an endpoint
//     that cannot be used as a *debate.UnavailableError. It talks to a
//     model through a ChatClient (chat.go);
//   - chat providers, registered by kind (provider.go). Each is one file
//     with its ChatClient and its registration: openai.go is the
//     OpenAI-compatible client, the one place that knows HTTP.
//
// It imports debate, inbox and registry (and internal/trust); it must not
// import config (which imports it), the service layer, a front end, or
// cobra: callers pass settings in (AdapterOptions).
package agent
