export type { Message, NativeToolCall, Usage } from './message.js';
export type { ChatStreamPart } from './chat-stream.js';
export type { EngineEvent, TurnStatus } from './engine-event.js';
