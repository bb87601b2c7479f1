import type { HacBridge, HostEvent } from './core-types.js';
import { LABELS } from './labels.js';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

export interface AttachmentsParts {
  chips: HTMLElement;
  button: HTMLButtonElement;
  picker: HTMLInputElement;
  prompt: HTMLTextAreaElement;
  bridge: HacBridge;
}

/**
 * Pictures for the next message: pasted into the prompt (Ctrl/Cmd+V), dropped on the window, or picked with
 * the + button; each becomes a removable chip above the prompt (thumbnail, name, size) once the host has
 * made it ready. Pasted text still pastes as text.
 */
export function createAttachments({ chips, button, picker, prompt, bridge }: AttachmentsParts) {
  const send = async (files: Iterable<File>) => {
    for (const file of files) {
      if (!IMAGE_TYPES.includes(file.type)) continue;
      await bridge.attach(file.name || 'pasted image', await base64Of(file));
    }
    prompt.focus();
  };
  const onPaste = (event: ClipboardEvent) => {
    const files = [...(event.clipboardData?.files ?? [])].filter((f) => IMAGE_TYPES.includes(f.type));
    if (!files.length) return;
    event.preventDefault();
    void send(files);
  };
  const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    document.body.classList.add('dropping');
  };
  const onDragLeave = () => document.body.classList.remove('dropping');
  const onDrop = (event: DragEvent) => {
    document.body.classList.remove('dropping');
    if (!hasFiles(event)) return;
    event.preventDefault();
    void send(event.dataTransfer?.files ?? []);
  };
  const onPick = () => {
    void send(picker.files ?? []);
    picker.value = '';
  };
  // Every listener goes when the page does.
  const listening = new AbortController();
  const { signal } = listening;
  prompt.addEventListener('paste', onPaste, { signal });
  document.addEventListener('dragover', onDragOver, { signal });
  document.addEventListener('dragleave', onDragLeave, { signal });
  document.addEventListener('drop', onDrop, { signal });
  picker.addEventListener('change', onPick, { signal });
  button.addEventListener('click', () => picker.click(), { signal });

  const show = (images: Extract<HostEvent, { type: 'attachments' }>['images']) => {
    chips.replaceChildren(
      ...images.map((image, index) => {
        const chip = document.createElement('span');
        chip.className = 'attachment';
        const thumbnail = document.createElement('img');
        thumbnail.alt = '';
        if (image.data) thumbnail.src = `data:${image.mediaType};base64,${image.data}`;
        const label = document.createElement('span');
        label.textContent = `${image.name} ${image.width}×${image.height}, ${sizeText(image.bytes)}`;
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = '×';
        remove.title = LABELS.removePicture(image.name);
        remove.setAttribute('aria-label', remove.title);
        remove.addEventListener('click', () => {
          void bridge.detach(index);
          prompt.focus();
        });
        chip.append(thumbnail, label, remove);
        return chip;
      }),
    );
    chips.hidden = images.length === 0;
  };

  return {
    react(event: HostEvent) {
      if (event.type === 'attachments') show(event.images);
    },
    dispose: () => listening.abort(),
  };
}

function sizeText(bytes: number): string {
  return bytes >= 1048576
    ? `${(bytes / 1048576).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

async function base64Of(file: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
  return url.slice(url.indexOf(',') + 1);
}
