import { ipcMain, type IpcMainInvokeEvent, type WebFrameMain } from 'electron';
import { parseBridgeCall, type BridgeSession, type Logger } from '../core/index.js';
import { APP_ORIGIN } from './app-protocol.js';
import { CALL_CHANNEL } from './channels.js';

/** Only the page itself, in a window's main frame, may call: not a subframe, not another origin. */
export function isTrustedSender(frame: WebFrameMain | null | undefined): boolean {
  return !!frame && frame.parent === null && frame.url.startsWith(`${APP_ORIGIN}/`);
}

/**
 * Every call from a page: the sender frame checked, the payload validated with the same schemas as `hac web`
 * (type and size), then handed to that window's conversation, which takes calls in the order they came.
 */
export function registerBridgeHandlers(
  sessionOf: (webContentsId: number) => BridgeSession | undefined,
  logger: () => Logger | undefined,
): void {
  ipcMain.handle(CALL_CHANNEL, (event: IpcMainInvokeEvent, raw: unknown) => {
    if (!isTrustedSender(event.senderFrame)) {
      logger()?.warn(`Refused a call from ${event.senderFrame?.url ?? 'an unknown frame'}.`);
      throw new Error('Refused: not the hac page.');
    }
    const parsed = parseBridgeCall(raw);
    if (!parsed.ok) {
      logger()?.warn(`Refused a call: ${parsed.problem}`);
      throw new Error(`Refused: ${parsed.problem}`);
    }
    const session = sessionOf(event.sender.id);
    if (!session) throw new Error('Refused: this window has no conversation.');
    return session.call(parsed.call);
  });
}
