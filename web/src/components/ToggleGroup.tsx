import type { ReactNode } from 'react';

/**
 * A row of toggle buttons, one pressed at a time (`aria-pressed`), named as a group for screen readers: the public
 * page's tag filter, the console's service tabs. `children` come after the buttons (a Refresh button).
 */
export function ToggleGroup<V extends string | null>({
  label,
  className,
  buttonClassName,
  options,
  pressed,
  onPress,
  children,
}: {
  /** The group's accessible name. */
  label: string;
  className: string;
  buttonClassName: string;
  options: readonly { value: V; label: ReactNode }[];
  pressed: V;
  onPress: (value: V) => void;
  children?: ReactNode;
}) {
  return (
    <div className={className} role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value ?? ''}
          type="button"
          className={buttonClassName}
          aria-pressed={o.value === pressed}
          onClick={() => onPress(o.value)}
        >
          {o.label}
        </button>
      ))}
      {children}
    </div>
  );
}
