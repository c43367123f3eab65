import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Checkbox, Field } from './Field';

describe('Field', () => {
  it('labels its control and links the hint', () => {
    render(
      <Field label="Country" hint="Where you are based.">
        {(field) => <input {...field} />}
      </Field>,
    );
    const input = screen.getByLabelText('Country');
    expect(input).toHaveAccessibleDescription('Where you are based.');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows its own error under the control, announced, linked and marking it invalid', () => {
    render(
      <Field label="New Password" hint="At least 8 characters." error="Please enter a new password.">
        {(field) => <input {...field} type="password" />}
      </Field>,
    );
    const input = screen.getByLabelText('New Password');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('At least 8 characters. Please enter a new password.');
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a new password.');
  });

  it('points at a form-level message and says required or optional after the label', () => {
    render(
      <>
        <Field label="Question title" marker="required" invalid describedBy="form-error">
          {(field) => <input {...field} />}
        </Field>
        <Field label="Description" marker="optional">
          {(field) => <textarea {...field} />}
        </Field>
        <p id="form-error">Question title is required</p>
      </>,
    );
    const title = screen.getByLabelText('Question title (required)');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription('Question title is required');
    expect(screen.getByLabelText('Description (optional)')).not.toHaveAttribute('aria-describedby');
  });

  it('keeps an id the caller chose (to focus the control)', () => {
    render(
      <Field label="Your Name" id="name-field">
        {(field) => <input {...field} />}
      </Field>,
    );
    expect(screen.getByLabelText('Your Name')).toHaveAttribute('id', 'name-field');
  });
});

describe('Checkbox', () => {
  function Terms() {
    const [agreed, setAgreed] = useState(false);
    return (
      <Checkbox checked={agreed} onChange={setAgreed} invalid={!agreed}>
        I agree
      </Checkbox>
    );
  }

  it('is labelled by its text and reports its state', async () => {
    render(<Terms />);
    const box = screen.getByRole('checkbox', { name: 'I agree' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await userEvent.setup().click(screen.getByText('I agree'));
    expect(box).toBeChecked();
    expect(box).not.toHaveAttribute('aria-invalid');
  });
});
