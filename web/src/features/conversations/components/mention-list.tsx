import type { Mentionable } from '@shared/mentions';
import { Avatar } from '@/components/avatar';
import { cn } from '@/lib/cn';

/**
 * The members an `@name` being typed may mean, above the note box. The box keeps the keyboard
 * (aria-activedescendant names the highlighted one); a click picks without taking focus from it.
 */
export function MentionList({
  id,
  options,
  activeIndex,
  optionId,
  onChoose,
}: {
  id: string;
  options: readonly Mentionable[];
  activeIndex: number;
  optionId: (index: number) => string;
  onChoose: (member: Mentionable) => void;
}) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label="Mention a teammate"
      className="absolute bottom-full left-0 z-30 mb-1 max-h-64 w-72 max-w-full overflow-y-auto rounded-lg border border-border bg-surface p-1 shadow-lg"
    >
      {options.map((member, index) => (
        <div
          key={member.id}
          id={optionId(index)}
          role="option"
          // Never focused itself: the note box keeps the keyboard and names this one as active.
          tabIndex={-1}
          aria-selected={index === activeIndex}
          // Before the box's blur: the pick happens with the keyboard still in the box.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onChoose(member)}
          onKeyDown={() => {}}
          className={cn(
            'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-fg',
            index === activeIndex ? 'bg-primary-soft' : 'hover:bg-surface-muted',
          )}
        >
          <Avatar name={member.name} className="size-6 text-xs" />
          <span className="truncate">{member.name}</span>
        </div>
      ))}
    </div>
  );
}
