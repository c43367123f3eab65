import { useId } from 'react';
import type { TipOption } from '@ques/contracts/core';

export interface TipValue {
  preset: string | null;
  custom: string;
}

interface TipSelectorProps {
  options: readonly TipOption[];
  value: TipValue;
  onChange: (next: TipValue) => void;
  invalid?: boolean;
  describedBy?: string;
}

/**
 * Tip presets as a radio group, plus a custom amount when the owner offers "Custom" (spec §2):
 * choosing a preset clears the custom amount; typing a custom amount clears the preset.
 */
export function TipSelector({ options, value, onChange, invalid, describedBy }: TipSelectorProps) {
  const name = useId();
  const customId = useId();
  const presets = options.filter((o) => o.value !== 'Custom');
  const allowsCustom = options.some((o) => o.value === 'Custom');

  return (
    <fieldset className="tip-selector" aria-describedby={describedBy} aria-invalid={invalid || undefined}>
      <legend className="field__label">Tip amount</legend>
      <div className="tip-selector__presets">
        {presets.map((option) => (
          <label key={String(option.id)} className="tip-chip">
            <input
              className="input-overlay"
              type="radio"
              name={name}
              value={option.value}
              checked={value.preset === option.value}
              onChange={() => onChange({ preset: option.value, custom: '' })}
            />
            <span>{option.value === '$0' ? 'No tip' : option.value}</span>
          </label>
        ))}
      </div>
      {allowsCustom ? (
        <div className="tip-selector__custom">
          <label htmlFor={customId} className="field__label field__label--inline">
            Custom amount ($)
          </label>
          <input
            id={customId}
            className="input input--tip"
            type="number"
            inputMode="decimal"
            min={1}
            step={1}
            placeholder="e.g. 15"
            value={value.custom}
            onChange={(e) => onChange({ preset: null, custom: e.target.value })}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
