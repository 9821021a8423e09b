"""The oracle: the instrument model that follows a task's plan and speaks like a real model."""
