/** A provider's finish reason (`stop`, `length`, `content_filter`…) as ours; tool calls are decided by the caller. */
export function toFinishReason(reason: string): 'stop' | 'length' | 'other' {
  if (reason === 'stop') return 'stop';
  return reason === 'length' ? 'length' : 'other';
}
