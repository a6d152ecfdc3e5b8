import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messagePreview } from '@/lib/message-preview';
import { useLazyPhoneFormat } from '@/lib/phone-display-lazy';
import { useRealtimeEvent } from '@/lib/realtime/realtime';
import type { DesktopNotice, Notifier, NotifierPermission } from '../device/notifier';

/** The first line of a text, as a notice's body. */
const firstLine = (text: string) => text.split(/\r?\n/, 1)[0] ?? '';

/**
 * Once the person allowed them, a new inbound text and an incoming call show a desktop
 * notice while the tab is hidden; clicking it brings the tab back (on the conversation, for a text).
 * Never while the tab is visible, and never for the person's own actions (only inbound texts and calls
 * ringing them are told).
 */
export function useDesktopNotifications(notifier: Notifier) {
  const [permission, setPermission] = useState<NotifierPermission>(() => notifier.permission());
  const navigate = useNavigate();
  const format = useLazyPhoneFormat();
  const active = () => notifier.permission() === 'granted' && notifier.isHidden();
  // A contact's name, else the number as people read it; the phone-number library loads only for that.
  const caller = async (name: string | undefined, number: string) => name?.trim() || format(number);
  // Checked again once the caller is known: the tab may have come back while the library loaded.
  const show = (notice: DesktopNotice) => {
    if (active()) notifier.show(notice);
  };

  useRealtimeEvent('new_message', ({ data }) => {
    const { message, conversation } = data;
    if (message.direction !== 'INBOUND' || message.type !== 'SMS' || !active()) return;
    void caller(conversation.contact.name, conversation.contact.phoneNumber).then((title) =>
      show({
        title,
        body: firstLine(messagePreview(message)),
        tag: `message-${message.id}`,
        onClick: () => {
          notifier.focus();
          navigate(`/conversations/${encodeURIComponent(conversation.id)}`);
        },
      }),
    );
  });

  useRealtimeEvent('incoming_call', ({ data }) => {
    if (!active()) return;
    void caller(data.contact?.name, data.from).then((body) =>
      show({
        title: 'Incoming call',
        body,
        tag: `call-${data.callSid}`,
        // The call panel is on every page: bringing the tab back is enough.
        onClick: () => notifier.focus(),
      }),
    );
  });

  return {
    permission,
    enable: () => notifier.requestPermission().then(setPermission),
  };
}
