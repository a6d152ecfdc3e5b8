import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { messagePreview } from '@/lib/message-preview';
import { useLazyPhoneFormat } from '@/lib/phone-display-lazy';
import { useRealtimeEvent } from '@/lib/realtime/realtime';
import { ringingCall } from '@/lib/ringing-call';
import type { DesktopNotice, Notifier, NotifierPermission } from '../device/notifier';

/** The first line of a text, as a notice's body. */
const firstLine = (text: string) => text.split(/\r?\n/, 1)[0] ?? '';

/**
 * Once the person allowed them, a new inbound text and an incoming call show a desktop
 * notice while the tab is hidden; clicking it brings the tab back (on the conversation, for a text),
 * and answers the call. A call is also told in a visible tab while the browser blocks its ringtone;
 * its notice goes once the call no longer rings (answered here or elsewhere, or over).
 * Never for the person's own actions (only inbound texts and calls ringing them are told).
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

  // A call also while the tab is visible when the browser blocks its ringtone (docs/product.md §10.5):
  // the notice is then the only sound. Its click answers the call if it still rings here.
  const callNoticeWanted = () => notifier.permission() === 'granted' && (notifier.isHidden() || ringingCall().soundBlocked);
  // The calls that no longer ring: their notice, which stays until acted on, goes (or never comes).
  const noLongerRinging = useRef(new Set<string>());
  const stopRinging = (callSid: string) => {
    noLongerRinging.current.add(callSid);
    notifier.close(`call-${callSid}`);
  };
  useRealtimeEvent('call_answered', ({ data }) => stopRinging(data.callSid));
  useRealtimeEvent('call_ended', ({ data }) => stopRinging(data.callSid));
  useRealtimeEvent('incoming_call', ({ data }) => {
    if (!callNoticeWanted()) return;
    void caller(data.contact?.name, data.from).then((body) => {
      if (!callNoticeWanted() || noLongerRinging.current.has(data.callSid)) return;
      notifier.show({
        title: 'Incoming call',
        body,
        tag: `call-${data.callSid}`,
        action: 'Answer',
        onClick: () => {
          notifier.focus();
          const ringing = ringingCall();
          if (ringing.callSid === data.callSid) ringing.answer();
        },
      });
    });
  });

  return {
    permission,
    enable: () => notifier.requestPermission().then(setPermission),
  };
}
