// Package natsexec serves any [runtime.Tool] — a generated package's *Tool, a
// runtime.RemoteTool, a Tool of your own — as a tool executor of an agent
// platform that runs external tools over NATS, as the platform's tool
// development guide ("工具开发指南", sections 1–3.2; not published with this
// repository, docs/natsexec.md restates what this package follows) describes
// them: it takes commands on NATS, reads their arguments from cards, calls the
// tool, and reports the result to the platform's inbox.
//
//	nc, _ := nats.Connect(url)
//	js, _ := jetstream.New(nc)
//	cards, _ := natsexec.NewKVCardStore(ctx, js, "")
//	ex, _ := natsexec.New(nc, weathertool.NewTool(svc), cards,
//		&natsexec.NATSReporter{Conn: nc, JetStream: js},
//		natsexec.Options{Subject: "cg.v1.{project_id}.{channel_id}.cmd.tool.{function}"})
//	defer ex.Close(ctx)
//
// # What follows the guide
//
//   - Each function is served on its target_subject, a cmd.tool.* subject
//     ([Options.Subject]; cmd.sys.* and anything else outside cmd.tool.* is
//     refused), as a queue group ([Options.Queue]) so that replicas share the
//     commands. {project_id} and {channel_id} are expanded
//     ([Options.ProjectID], [Options.ChannelID]) or, left empty, subscribed as
//     wildcards whose tokens in each command's subject are read back as the
//     command's project and channel.
//   - The command's payload (ToolCommandPayload) is checked: tool_call_id,
//     agent_turn_id, turn_epoch, agent_id, and, for an external tool, which
//     ours always are, tool_call_card_id, tool_name and after_execution are
//     required. Strings must be non-empty JSON strings, turn_epoch a
//     non-negative integer, after_execution "suspend" or "terminate", tool_name
//     the function the subject serves; context_box_id, optional, a string.
//     A payload carrying args or arguments is refused (the guide: the server
//     refuses them by protocol). Every problem is named in one failed result
//     (error_code protocol_violation; error.detail {"fields": [{"field",
//     "problem"}]}): a bad command is never dropped and never crashes the
//     executor.
//   - The arguments are the ToolCallContent.arguments of the tool.call card
//     tool_call_card_id names, read from the card store in the command's
//     project; never anything of the payload.
//   - The guide's template variables ({project_id}, {channel_id}, {agent_id},
//     {agent_turn_id}, {tool_call_id}, {turn_epoch}, {context_box_id} from the
//     command and its subject; {step_id}, {parent_step_id}, {trace_id} from
//     the tool.call card's metadata) are put on the call's context with
//     runtime.WithCallValues, so that the tool's WithDefaults and WithFixed
//     templates ("{agent_turn_id}") are filled from the command.
//   - The result is a tool.result card whose content is a [ToolResultContent]
//     and whose metadata.trace_id, parent_step_id and step_id are copied from
//     the tool.call card's metadata byte for byte (never filled from the
//     payload; a failed command that names a tool.call card gets its lineage
//     too); then a report ([ReportPayload]: tool_call_id, agent_turn_id,
//     agent_id, turn_epoch, after_execution echoed exactly as received, status,
//     tool_result_card_id, step_id; never the result inline) goes to the
//     [Reporter], the inbox of the guide's publish_tool_result_report.
//   - A tool overrides the effective after_execution by returning
//     {"__cg_control": {"after_execution": "suspend"|"terminate"}} in its
//     result: the card's content.after_execution is then the override, while
//     the report echoes the command's. Another value is ignored.
//   - A failure (status "failed", "timeout" or "canceled") has result
//     {"error_code", "error_message"} and error {"code", "message",
//     "detail"} (the guide's §3.1); for an error of the tool, detail is the
//     OpenTool error object ({"code", "message", "data"}) a /call answer
//     has, and code is [ErrorCode]'s mapping: -32602 invalid_arguments,
//     -32601 tool_not_found, -32700 and -32600 invalid_request, -32603
//     internal_error (also a panic, or a result that is not an object), 401
//     unauthorized, 403 forbidden, 404 not_found, 429 rate_limited, 502 and
//     503 upstream_unavailable (and a client's "no access"), 408 and 504
//     timeout, Options.Timeout reached timeout (status "timeout"), any other
//     code tool_error.
//   - The report's headers carry a new traceparent, a child span of the
//     command's. With [Options.Interceptors] (otelbridge.Interceptor) and a
//     propagator set (otelbridge.Install), that span is the one the
//     interceptor makes of the call (front [Front], child of the command's
//     traceparent, exported with the others), and the report carries its
//     traceparent and tracestate. Without them, the executor makes the
//     child's id itself: the same trace id and sampled flag, a new span id,
//     tracestate passed through. A command without a valid traceparent (W3C
//     trace context, version 00, parsed here without OpenTelemetry) starts a
//     new trace, and its tracestate is dropped. Header names are matched
//     exactly, then without regard to case ("traceparent", "Traceparent").
//   - The executor writes cards and reports only: never state.*.
//
// # What is our assumption
//
// The platform's protocol (04_protocol_l0/nats_protocol.md) and its stores
// are not ours; where the guide is silent, this package assumes:
//
//   - The subject grammar: [Options.Subject] is a template of whole-token
//     placeholders {function}, {project_id}, {channel_id}; the cmd.tool.*
//     family is either the guide's short form cmd.tool.NAME… (the default,
//     cmd.tool.{function}) or the platform's full form
//     cg.VERSION.{project_id}.{channel_id}.cmd.tool.NAME… (as a public version
//     of its protocol writes subjects). A subject without {project_id} gives
//     the command the project of Options.ProjectID ("" when unset).
//   - The card JSON shape ([Card]): {"card_id", "project_id", "type",
//     "author_id", "content", "metadata", "created_at"}, type "tool.call" or
//     "tool.result"; ToolCallContent {"tool_call_id", "tool_name",
//     "arguments"}, of which arguments only is read; ToolResultContent
//     {"tool_call_id", "tool_name", "status", "after_execution", "result",
//     "error"}. Result card ids are random UUIDs; author_id is
//     [Options.AuthorID].
//   - The stores: [CardStore] (Get and Save by project and id) and [Reporter]
//     (Report with payload and headers) stand for the platform's cardbox and
//     L0 inbox. [MemoryCardStore] and [MemoryReporter] keep them in memory;
//     [KVCardStore] keeps cards in a JetStream key-value bucket
//     ([DefaultCardBucket], "cardbox_cards"; key PROJECT.CARD_ID, "_" for no
//     project) and [NATSReporter] publishes reports to an inbox subject
//     ([DefaultInboxSubject], "l0.inbox.{project_id}.{agent_id}.tool_result"),
//     through JetStream when given one (a stream must capture the subject),
//     for a self-contained deployment. Neither is the platform's: its inbox is
//     state.agent_inbox, written by its own ExecutionService.
//   - Commands are taken from a core NATS queue subscription (which also
//     receives what is published into a JetStream stream), not from a durable
//     JetStream consumer. A command sent as a request gets a reply: what the
//     guide's handler returns (tool_call_id, agent_turn_id, turn_epoch,
//     after_execution as received, status, tool_result_card_id).
//   - A card that cannot be saved, or a report that cannot be delivered, is
//     logged ([Options.Logger]) and, for a request, said in the reply; it is
//     not retried.
//
// Streaming functions (our decision; the guide has a single result): when the
// tool is a runtime.StreamTool, a function its document marks as streaming
// is called with StreamCall and its items, in order, are the result:
// {"items":[…]}. At [Options.MaxStreamItems] items (default
// [DefaultMaxStreamItems]) or [Options.MaxStreamBytes] bytes of result
// (default [DefaultMaxStreamBytes], 1 MiB) the stream is ended (its context
// cancelled, its emit returning an error) and the result is
// {"items":[…],"truncated":true}, status success. A stream that fails is a
// failed result as a call's error is; the items it sent are dropped.
//
// Limits: [Options.MaxConcurrent] commands run at once (64); a call is bounded
// by [Options.Timeout] when set.
package natsexec
