import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messagePreview } from '../../../lib/message-preview';
import { usePhoneFormat } from '../../../lib/phone-display';
import { useRealtimeEvent } from '../../../lib/realtime/realtime';
import type { Notifier, NotifierPermission } from '../device/notifier';

/** The first line of a text, as a notice's body. */
const firstLine = (text: string) => text.split(/\r?\n/, 1)[0] ?? '';

/**
 * Issue 27: once the person allowed them, a new inbound text and an incoming call show a desktop
 * notice while the tab is hidden; clicking it brings the tab back (on the conversation, for a text).
 * Never while the tab is visible, and never for the person's own actions (only inbound texts and calls
 * ringing them are told).
 */
export function useDesktopNotifications(notifier: Notifier) {
  const [permission, setPermission] = useState<NotifierPermission>(() => notifier.permission());
  const navigate = useNavigate();
  const format = usePhoneFormat();
  const active = () => notifier.permission() === 'granted' && notifier.isHidden();

  useRealtimeEvent('new_message', ({ data }) => {
    const { message, conversation } = data;
    if (message.direction !== 'INBOUND' || message.type !== 'SMS' || !active()) return;
    notifier.show({
      title: conversation.contact.name.trim() || format(conversation.contact.phoneNumber),
      body: firstLine(messagePreview(message)),
      tag: `message-${message.id}`,
      onClick: () => {
        notifier.focus();
        navigate(`/conversations/${encodeURIComponent(conversation.id)}`);
      },
    });
  });

  useRealtimeEvent('incoming_call', ({ data }) => {
    if (!active()) return;
    notifier.show({
      title: 'Incoming call',
      body: data.contact?.name.trim() || format(data.from),
      tag: `call-${data.callSid}`,
      // The call panel is on every page: bringing the tab back is enough.
      onClick: () => notifier.focus(),
    });
  });

  return {
    permission,
    enable: () => notifier.requestPermission().then(setPermission),
  };
}
