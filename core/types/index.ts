export type { Message, MessageImage, NativeToolCall, Usage } from './message.js';
export type { ChatStreamPart } from './chat-stream.js';
export type { EngineEvent, ErrorCode, ProviderErrorCode, TurnStatus } from './engine-event.js';
export type { ElicitationAnswer, ElicitationRequest, FieldValue, FormField } from './elicitation.js';
